// The cursor-jump bench's generated project: a 5,000-line file that calls into 20 library files of the project
// through its imports or includes, written to a temporary workspace, and the lines the cursor lands on.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Lines of the big file. */
export const LINES = 5_000;
/** Library files the big file calls into. */
export const LIBRARIES = 20;
/** What each library is about: its file's and its functions' names. */
export const NOUNS = [
  "invoice",
  "ledger",
  "route",
  "token",
  "parcel",
  "ticket",
  "budget",
  "vendor",
  "sensor",
  "report",
  "quota",
  "refund",
  "tariff",
  "cohort",
  "permit",
  "voucher",
  "shelf",
  "badge",
  "meter",
  "batch",
] as const;
/** The functions of each library, by what they do. */
export const VERBS = ["score", "parse", "merge", "split", "count", "check", "weigh", "rank"] as const;

/** A call of library `lib`'s function `verb`, as the big file writes it. */
export interface Call {
  lib: number;
  verb: number;
}

/** How one language writes the project: each language's own idiom, resolved as a real project of it is. */
export interface JumpLanguage {
  name: string;
  languageId: string;
  /** The big file's workspace-relative path. */
  main: string;
  /** The file that declares library `lib`'s functions (a C header): the one the prompt should carry. */
  library(lib: number): { path: string; text: string };
  /** The other files (build files, sources, package markers), by workspace-relative path; `root` is absolute. */
  others(root: string): Array<[string, string]>;
  /** The big file's first lines: its package line and imports (or includes) of every library. */
  head: string[];
  /** Its last lines (a class's closing brace). */
  tail: string[];
  /** Function `k` of the big file, `(input, offset)` to an integer: its lines before its body, and after it. */
  fn(k: number): { open: string[]; close: string[] };
  /** A call's expression with these arguments. */
  call(call: Call, args: string): string;
  /** A local variable bound to an expression, as a statement. */
  local(name: string, expr: string): string;
  /** `return expr`, as a statement. */
  ret(expr: string): string;
  /** One level of indentation in a function body (a Java method's is two: it is in a class). */
  indent: string;
  /** What the called function's declaration holds in its library's file (`int invoice_score(`). */
  declares(call: Call): string;
}

/** The big file of a language: its text, and the call each calling line makes (by 0-based line). */
export interface BigFile {
  text: string;
  calls: Map<number, Call>;
}

/**
 * The big file: functions of ordinary code, each calling into two libraries six times, the results combined, until
 * the file has {@link LINES} lines (blank lines at the end fill what no whole function does).
 */
export function bigFile(language: JumpLanguage): BigFile {
  const lines = [...language.head];
  const calls = new Map<number, Call>();
  for (let k = 0; ; k++) {
    const libs = [k % LIBRARIES, (k * 7 + 3) % LIBRARIES];
    const body: Array<{ text: string; call?: Call }> = [];
    let previous = "offset";
    for (let i = 0; i < 6; i++) {
      const call = { lib: libs[i % 2]!, verb: (k + i) % VERBS.length };
      const name = `${"abcdef"[i]}`;
      body.push({ text: language.local(`${name}0`, language.call(call, `input, ${previous}`)), call });
      body.push({ text: language.local(`${name}1`, `${name}0 * ${(i % 5) + 2} + ${previous} % ${k + 3}`) });
      previous = `${name}1`;
    }
    body.push({ text: language.ret("a1 + b1 + c1 + d1 + e1 + f1") });
    const { open, close } = language.fn(k);
    if (lines.length + open.length + body.length + close.length + 1 + language.tail.length > LINES) break;
    lines.push(...open);
    for (const line of body) {
      if (line.call) calls.set(lines.length, line.call);
      lines.push(language.indent + line.text);
    }
    lines.push(...close, "");
  }
  while (lines.length + language.tail.length < LINES) lines.push("");
  lines.push(...language.tail);
  return { text: lines.join("\n"), calls };
}

/** Write a language's project to a new temporary folder; returns its path (the workspace root). */
export function writeProject(language: JumpLanguage, big: BigFile): string {
  const root = mkdtempSync(join(tmpdir(), "infill-bench-jump-"));
  const libraries = Array.from({ length: LIBRARIES }, (_, lib): [string, string] => {
    const { path, text } = language.library(lib);
    return [path, text];
  });
  for (const [path, text] of [...language.others(root), ...libraries, [language.main, big.text] as const]) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A small deterministic PRNG (mulberry32): the same jumps in every arm and every run. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The lines the cursor jumps to, in order: `count` calling lines, none twice (a place visited before could be
 * answered from the server's memory), shuffled by a seeded PRNG.
 */
export function landingLines(big: BigFile, count: number, seed = 17): number[] {
  const lines = [...big.calls.keys()];
  if (lines.length < count) throw new Error(`only ${lines.length} calling lines for ${count} jumps`);
  const next = random(seed);
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  return lines.slice(0, count);
}
