// infill-lsp context eval: repository context off vs on, on pinned corpora, every figure measured in this run.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Corpus } from "./corpus.js";
import { plannedCorpora, selectedCorpora } from "./corpus-plan.js";
import { provisionCtags, runCtags } from "./ctags.js";
import { type CorpusResult, evaluateCorpus } from "./evaluate.js";
import { missesOf } from "./misses.js";
import { formatCorpus, formatMemberSummary, formatSummary } from "./report.js";
import type { SampleCaps } from "./sample.js";
import { serverLine } from "./server-line.js";

// One level below the package root (eval/ in source, .bench/ bundled), like the bench.
// `INFILL_EVAL_BIN` runs another build instead (the one with the tree-sitter TypeScript parser: see build.mjs).
const BIN = process.env.INFILL_EVAL_BIN ?? fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
/** TypeScript: up to 400 holes per import kind and package stratum (a few minutes on 2 cores for the three). */
const TYPESCRIPT_CAPS: SampleCaps = { perStratum: 400, perFile: 3, stratified: true };
/** The ctags corpora: a proportional sample of up to 300 holes each, so that overall recall is the corpus's. */
const CTAGS_CAPS: SampleCaps = { perStratum: 300, perFile: 3, stratified: false };

console.log(`infill-lsp context eval (Node ${process.version})`);
console.log(
  `server: ${serverLine(BIN, REPO_ROOT)}: whatever outline and import resolution it has for each language.`,
);
console.log(
  "A hole: a line using an identifier X declared in another corpus file, the cursor right after X( new X( X. or\n" +
    "X< (TypeScript; ns.X… for namespace imports), X:: or X-> (where the language has them), the rest of the line\n" +
    "removed. Recall: the share of holes whose request (prompt + suffix, as the sim received it) contains one of\n" +
    "X's declaration lines, trimmed. Oracles, independent of the server: for TypeScript the compiler (X imported\n" +
    "from another file, resolved through aliases); for the other languages Universal Ctags (X defined in exactly\n" +
    "one other file), with strata by the language's import rule. One server per configuration; progress goes to\n" +
    "stderr.\n",
);

const scratch = mkdtempSync(path.join(tmpdir(), "infill-eval-"));
let ctags: Promise<string> | undefined;
const tags = (corpus: Corpus) => {
  ctags ??= provisionCtags(REPO_ROOT);
  return ctags.then((bin) => runCtags(bin, corpus.root, corpus.files));
};
const { corpora, said } = selectedCorpora(plannedCorpora(REPO_ROOT, scratch, { repository: true }));
if (said) console.log(said);
// INFILL_EVAL_HOLES=members runs the member-access holes only (no import holes, so no session either): to iterate
// on the member outline, not the eval's figures.
const membersOnly = process.env.INFILL_EVAL_HOLES === "members";
if (membersOnly) console.log("INFILL_EVAL_HOLES=members: member-access holes only\n");
const NO_HOLES: SampleCaps = { perStratum: 0, perFile: 0, stratified: false };
// INFILL_EVAL_MISSES=<file> writes every hole not recalled there, one JSON object a line (eval/misses.ts).
const missesFile = process.env.INFILL_EVAL_MISSES;
if (missesFile) writeFileSync(missesFile, "");
const results: CorpusResult[] = [];
const started = performance.now();
try {
  for (const corpus of corpora) {
    const loaded = await corpus.load();
    const result = await evaluateCorpus(loaded, {
      bin: BIN,
      caps: membersOnly ? NO_HOLES : loaded.language === "TypeScript" ? TYPESCRIPT_CAPS : CTAGS_CAPS,
      tags,
      progress: (line) => console.error(`  … ${line}`),
    });
    results.push(result);
    console.log(`${formatCorpus(result).join("\n")}\n`);
    const misses = missesOf(result);
    if (missesFile && misses.length > 0) appendFileSync(missesFile, `${misses.join("\n")}\n`);
    rmSync(loaded.root, { recursive: true, force: true });
  }
  console.log(formatSummary(results).join("\n"));
  const members = formatMemberSummary(results);
  if (members.length > 0) console.log(`\n${members.join("\n")}`);
  console.log(`\n(${results.length} corpora in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
