// What syntax-aware endings cost a suggestion (issue 17, point 5): in process, on a 1,000-line C and Java file kept
// parsed as the repository context keeps an open document, the time from a suggestion's raw text to its answer with
// the plain rules (post-processing) and with the syntax-aware cut (the document's text taken, its kept tree asked,
// the variants parsed incrementally), p50 and p99, and the parses each took.
import { loadavg } from "node:os";
import { documentSyntax, loadSyntaxLayer } from "../src/completion/document-syntax.js";
import { completionMode, type PostProcessContext, postProcess } from "../src/completion/postprocess.js";
import { blockEndLine, endSuggestion, type SyntaxDocument } from "../src/completion/syntax-ending.js";
import { supportFor } from "../src/context/lang/index.js";
import type { Family } from "../src/context/types.js";
import { Documents } from "../src/documents/documents.js";
import { quantile, report } from "./harness.js";

const FUNCTIONS = 100;

/** A 1,000-line file of 100 functions (C) or methods (Java), ten lines each with the blank line between them. */
function bigFile(family: "c" | "java"): string {
  const out: string[] = family === "java" ? ["public class Big {"] : [];
  const pad = family === "java" ? "    " : "";
  for (let i = 0; i < FUNCTIONS; i++) {
    out.push(
      `${pad}${family === "java" ? "static " : ""}int f${i}(int a, int b) {`,
      `${pad}  int s = a + b;`,
      `${pad}  int d = a - b;`,
      `${pad}  if (s > d) {`,
      `${pad}    s = s * ${i};`,
      `${pad}  } else {`,
      `${pad}    d = d * ${i};`,
      `${pad}  }`,
      `${pad}  return s + d;`,
      `${pad}}`,
    );
    if (i < FUNCTIONS - 1) out.push("");
  }
  if (family === "java") out.push("}");
  return out.join("\n");
}

type Kind = "balanced" | "stray closer";

/** Where each kind of suggestion is asked (line, character) in the file, and what the model wrote there. */
function sites(family: "c" | "java", lines: string[]): Array<{ kind: Kind; line: number; raw: string }> {
  const pad = family === "java" ? "    " : "";
  const out: Array<{ kind: Kind; line: number; raw: string }> = [];
  lines.forEach((text, line) => {
    // After a function's `{`: a statement more, balanced (the one parse that finds nothing to cut).
    if (/\) \{$/.test(text) && /int f\d+/.test(text))
      out.push({ kind: "balanced", line, raw: `\n${pad}  int t = a * b;\n${pad}  s = s + t;` });
    // On the blank line between two functions: one more, then a stray closer (cut by the error rule).
    if (text === "")
      out.push({
        kind: "stray closer",
        line,
        raw: `${pad}int extra(int a) {\n${pad}  return a;\n${pad}}\n}`,
      });
  });
  return out;
}

export async function endingsBench(): Promise<void> {
  await loadSyntaxLayer();
  // Tails on a shared 2-core machine are mostly the other processes': the load is printed beside them.
  console.log(
    `\nsyntax-aware endings: the cost per suggestion (in process, 1,000-line files kept parsed; load average ${loadavg()[0]!.toFixed(1)})`,
  );
  for (const family of ["c", "java"] as const) {
    const support = supportFor(family as Family)!;
    await support.ready?.();
    const text = bigFile(family);
    const lines = text.split("\n");
    const uri = `file:///bench/big.${family}`;
    const documents = new Documents();
    documents.didOpen({ textDocument: { uri, languageId: family, version: 1, text } });
    // The repository context parses an open document when it opens: its tree is kept.
    support.parseOpen?.(uri, text, documents.get(uri)!.buffer);
    const doc = documents.get(uri)!;
    for (const kind of ["balanced", "stray closer"] as const) {
      const plain: number[] = [];
      const syntax: number[] = [];
      const parses: number[] = [];
      let cut = 0;
      let checked = 0;
      const streamCheck: number[] = [];
      // Round 0 warms the JIT and the WebAssembly heap up and is not counted.
      for (let round = 0; round < 4; round++) {
        const keep = round > 0;
        for (const site of sites(family, lines).filter((s) => s.kind === kind)) {
          const here = { line: site.line, character: lines[site.line]!.length };
          const ctx: PostProcessContext = {
            lineBefore: lines[site.line]!,
            lineAfter: "",
            suffix: `\n${lines.slice(site.line + 1, site.line + 60).join("\n")}`,
            mode: completionMode(lines[site.line]!, "", "auto"),
          };
          let t = performance.now();
          const today = postProcess(site.raw, ctx);
          if (keep) plain.push(performance.now() - t);
          t = performance.now();
          const made = documentSyntax(doc, here)!();
          let count = 0;
          const counted: SyntaxDocument | undefined = made && {
            ...made,
            parse: (variant) => {
              count++;
              return made.parse(variant);
            },
          };
          const ours = endSuggestion(site.raw, ctx, counted);
          if (!keep) continue;
          syntax.push(performance.now() - t);
          parses.push(count);
          checked++;
          if (ours?.text !== today?.text) cut++;
          // While a block streams, each new line costs one check of the block's end.
          if (counted && ours) {
            t = performance.now();
            blockEndLine(ours.text, counted);
            streamCheck.push(performance.now() - t);
          }
        }
      }
      const ms = (values: number[], q: number) => `${quantile(values, q).toFixed(2)} ms`;
      console.log(
        `  ${family} ${kind}: ${checked} suggestions, ${cut} cut; plain rules p50 ${ms(plain, 0.5)} p99 ${ms(plain, 0.99)}; ` +
          `with syntax p50 ${ms(syntax, 0.5)} p90 ${ms(syntax, 0.9)} p99 ${ms(syntax, 0.99)}, parses p50 ${quantile(parses, 0.5)} max ${Math.max(...parses)}; ` +
          `block-end check while streaming p50 ${ms(streamCheck, 0.5)} p99 ${ms(streamCheck, 0.99)}`,
      );
      report(
        `syntax-aware ending, ${family} 1,000 lines, ${kind}: p50 / p99 per suggestion`,
        `${ms(syntax, 0.5)} / ${ms(syntax, 0.99)}`,
        "p50 ≤ 2 ms (once per answer, after the stream settled)",
        quantile(syntax, 0.5) <= 2,
      );
    }
    support.close?.(uri);
  }
}
