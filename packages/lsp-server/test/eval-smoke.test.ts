// A smoke run of the context eval (`pnpm eval`) on two fixtures, a TypeScript one (the compiler's oracle) and a C
// one (the ctags oracle, on ctags' output committed beside it): the plumbing, not the goals.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { folderCorpus, HELD_OUT } from "../eval/corpus.js";
import { parseTags } from "../eval/ctags.js";
import { DEBIAN_CORPORA } from "../eval/debian-corpora.js";
import { positionAt, textAtHole } from "../eval/drive.js";
import { CONFIGS, type CorpusResult, evaluateCorpus, MEMBER_CONFIGS } from "../eval/evaluate.js";
import { quantile, recalled } from "../eval/figures.js";
import { formatCorpus, formatMemberSummary, formatSummary } from "../eval/report.js";
import { chooseTabs, sampleHoles } from "../eval/sample.js";

const BIN = fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/eval-corpus", import.meta.url));
const C_FIXTURE = fileURLToPath(new URL("./fixtures/eval-corpus-c", import.meta.url));
/**
 * ctags' output on the C fixture, committed so that CI needs no ctags: regenerate it with the command in the
 * documentation of `CTAGS_OPTIONS` (eval/ctags.ts) after changing the fixture or the options.
 */
const C_TAGS = fileURLToPath(new URL("./fixtures/eval-corpus-c.tags.jsonl", import.meta.url));

describe("context eval, on a fixture corpus", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "infill-eval-smoke-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let result: CorpusResult;

  it("finds every hole with its kind and declaration lines, and runs each in both configurations", async () => {
    const corpus = folderCorpus("eval-fixture", FIXTURE, scratch);
    expect(corpus.files).toEqual(["src/app.ts", "src/geometry.ts", "src/shapes.ts"]);
    result = await evaluateCorpus(corpus, {
      bin: BIN,
      caps: { perStratum: 10, perFile: 10, stratified: true },
    });

    const point = "src/geometry.ts:2 export interface Point<T = number> {";
    const distance = "src/geometry.ts:16 export function distance(a: Point, b: Point): number {";
    const vector = "src/geometry.ts:8 export class Vector {";
    const square =
      "src/shapes.ts:7 export default function makeSquare(corner: Point, side: number): Point[] {";
    expect(
      result.found.map((h) => [
        h.id,
        h.name,
        h.stratum,
        h.pattern,
        ...h.declarations.map((d) => `${d.file}:${d.line + 1} ${d.text}`),
      ]),
    ).toEqual([
      ["src/app.ts:5:41", "Point", "named", "generic", point],
      ["src/app.ts:7:61", "distance", "named", "call", distance],
      ["src/app.ts:12:30", "makeSquare", "default", "call", square],
      ["src/app.ts:13:24", "Vector", "named", "new", vector],
      ["src/app.ts:14:33", "Vector", "namespace", "new", vector],
      ["src/app.ts:15:49", "distance", "namespace", "call", distance],
    ]);
    expect(result.sampled).toEqual(result.found);

    for (const { name } of CONFIGS) {
      const run = result.runs[name];
      for (const scenario of ["disk", "tabs"] as const) {
        const observations = run.observations[scenario];
        expect(observations.map((o) => o.hole)).toEqual(result.sampled);
        for (const { hole, sent } of observations) {
          // The request is the hole's: its prompt ends where the line was cut.
          const text = readFileSync(path.join(FIXTURE, hole.file), "utf8");
          const line = textAtHole(text, hole.offset).split("\n")[hole.line]!;
          expect(sent?.prompt.endsWith(line)).toBe(true);
        }
        expect(run.usages[scenario]).toHaveLength(observations.length);
      }
      expect(run.session?.words).toBeGreaterThan(0);
      expect(run.sessionUsages).toHaveLength(run.session!.sent.length);
    }
  });

  it("computes the figures from what the sim received", () => {
    for (const { name } of CONFIGS) {
      const figures = result.figures[name];
      for (const scenario of ["disk", "tabs"] as const) {
        expect(figures.captured[scenario]).toEqual({ hits: 6, total: 6 });
        expect(figures.recall[scenario].all.total).toBe(6);
        expect(figures.recall[scenario].byStratum).toMatchObject({
          named: { total: 3 },
          namespace: { total: 2 },
          default: { total: 1 },
        });
        expect(figures.meanPromptTokens[scenario]).toBeGreaterThan(50);
      }
      const requests = 12 + result.runs[name].session!.sent.length;
      expect(figures.overBudget).toEqual({ hits: 0, total: requests });
      expect(figures.cacheHits).toBeGreaterThan(0);
      expect(figures.cacheHits).toBeLessThan(1);
    }
    expect(result.changed).toMatchObject({ disk: { total: 6 }, tabs: { total: 6 } });
    // Without context a request holds only the current file, and the oracle dropped holes whose file has the line.
    expect(result.figures.off.recall.disk.all.hits).toBe(0);
    expect(result.figures.off.recall.tabs.all.hits).toBe(0);

    const report = formatCorpus(result).join("\n");
    expect(report).toContain("eval-fixture (TypeScript, tuning)");
    expect(report).toMatch(
      /holes found 6: named 3, namespace 2, default 1; call 3, new 2, member 0, generic 1/,
    );
    expect(report).toMatch(/recall, current file only \(imports from disk\) +0\.000 +\d\.\d{3} +≥ 0\.85/);
    expect(formatSummary([result]).join("\n")).toMatch(
      /TypeScript +eval-fixture \(tuning\) +6 +0\.000 → \d\.\d{3} [✓✗] +0\.000 → \d\.\d{3} [✓✗]/,
    );
  });
  it("runs the member-access holes off, on, and on with an editor that locates the receiver's type", () => {
    const { sampled, observations } = result.members;
    expect(sampled.map((h) => `${h.id} ${h.name}`)).toEqual(["src/app.ts:14:35 x", "src/app.ts:14:40 y"]);
    for (const { name } of MEMBER_CONFIGS) {
      for (const scenario of ["disk", "tabs"] as const)
        expect(observations[name][scenario].map((o) => o.hole)).toEqual(sampled);
    }
    // Only the editor's server asks, once per hole, at the receiver `v`, and gets `class Vector`'s line.
    expect(sampled.map((h) => h.receiverType)).toEqual([
      { line: 13, character: 32, end: 33, declarations: [{ file: "src/geometry.ts", line: 7 }] },
      { line: 13, character: 37, end: 38, declarations: [{ file: "src/geometry.ts", line: 7 }] },
    ]);
    for (const scenario of ["disk", "tabs"] as const) {
      expect(observations.editor[scenario].map((o) => o.typeQuestions)).toEqual(
        sampled.map(() => ({ asked: 1, atReceiver: 1, located: 1 })),
      );
      expect(observations.on[scenario].map((o) => o.typeQuestions)).toEqual(sampled.map(() => undefined));
    }
    // The editor's outline of Vector holds x's and y's declarations; without context the file alone does not.
    for (const { sent, hole } of observations.editor.disk) expect(recalled(hole, sent)).toBe(true);
    for (const { sent, hole } of observations.off.disk) expect(recalled(hole, sent)).toBe(false);
    expect(formatCorpus(result).join("\n")).toMatch(
      /member recall, current file only \(imports from disk\) +0\.000 +\d\.\d{3} +1\.000 /,
    );
    expect(formatMemberSummary([result]).join("\n")).toMatch(
      /TypeScript +eval-fixture \(tuning\) +2 +0\.000 → \d\.\d{3} [✓✗] → 1\.000 ✓ +0\.000 → \d\.\d{3} [✓✗] → 1\.000 ✓ +\d+ \/ \d+ +2\/2/,
    );
  });
});

describe("context eval, on a C fixture through the ctags oracle", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "infill-eval-smoke-c-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let result: CorpusResult;

  it("finds the holes ctags' definitions give, with their strata, and runs each in both configurations", async () => {
    const corpus = folderCorpus("eval-fixture-c", C_FIXTURE, scratch, "C");
    expect(corpus.files).toEqual([
      "lib/log.c",
      "lib/log.h",
      "src/geometry.c",
      "src/geometry.h",
      "src/main.c",
      "src/quiet.c",
      "src/shapes.c",
    ]);
    const tags = parseTags(readFileSync(C_TAGS, "utf8"));
    result = await evaluateCorpus(corpus, {
      bin: BIN,
      caps: { perStratum: 10, perFile: 10, stratified: false },
      tags: async () => tags,
    });

    const distance = [
      "src/geometry.c:5 double distance(struct point a, struct point b) {",
      "src/geometry.h:11 double distance(struct point a, struct point b);",
    ];
    const square = ["src/geometry.h:4 #define SQUARE(x) ((x) * (x))"];
    const logLine = [
      "lib/log.c:9 void log_line(const char *text) {",
      "lib/log.h:10 void log_line(const char *text);",
    ];
    expect(
      result.found.map((h) => [
        h.id,
        h.name,
        h.stratum,
        h.pattern,
        ...h.declarations.map((d) => `${d.file}:${d.line + 1} ${d.text}`),
      ]),
    ).toEqual([
      // Twice on one line: each use is a hole of its own.
      ["src/geometry.c:6:22", "SQUARE", "import", "call", ...square],
      ["src/geometry.c:6:42", "SQUARE", "import", "call", ...square],
      // Not in the comment, nor in the string; perimeter() is in the folder but no header declares it.
      ["src/main.c:10:44", "distance", "import", "call", ...distance],
      [
        "src/main.c:11:28",
        "perimeter",
        "package",
        "call",
        "src/shapes.c:5 double perimeter(const struct point *corners, int n) {",
      ],
      ["src/main.c:12:12", "log_line", "name", "call", ...logLine],
      [
        "src/main.c:13:19",
        "current_logger",
        "name",
        "arrow",
        "lib/log.c:5 struct logger *current_logger;",
        "lib/log.h:8 extern struct logger *current_logger;",
      ],
      // `current_logger->` here is the parameter's; log.h is found through an include directory.
      ["src/quiet.c:5:12", "log_line", "import", "call", ...logLine],
      // clamp() is static in two files: no hole.
      ["src/shapes.c:7:56", "distance", "import", "call", ...distance],
    ]);
    expect(result.sampled).toEqual(result.found);
    expect(result.found.find((h) => h.file === "src/main.c")?.imports).toEqual(["src/geometry.h"]);

    for (const { name } of CONFIGS) {
      for (const scenario of ["disk", "tabs"] as const) {
        const observations = result.runs[name].observations[scenario];
        expect(observations.map((o) => o.hole)).toEqual(result.sampled);
        for (const { hole, sent } of observations) {
          const text = readFileSync(path.join(C_FIXTURE, hole.file), "utf8");
          expect(sent?.prompt.endsWith(textAtHole(text, hole.offset).split("\n")[hole.line]!)).toBe(true);
        }
      }
    }
    // Without context a request holds only the current file, and no hole's file holds a declaration line.
    expect(result.figures.off.recall.disk.all).toEqual({ hits: 0, total: 8 });
    expect(result.figures.off.recall.disk.byStratum).toEqual({
      import: { hits: 0, total: 5 },
      package: { hits: 0, total: 1 },
      name: { hits: 0, total: 2 },
    });

    const report = formatCorpus(result).join("\n");
    expect(report).toContain("eval-fixture-c (C, tuning)");
    expect(report).toMatch(/holes found 8: import 5, package 1, name 2; call 7, member 0, arrow 1/);
    expect(report).toMatch(/reachable by an import \(5\) +0\.000 +\d\.\d{3}/);
    expect(report).toMatch(/recall, current file only \(imports from disk\) +0\.000 +\d\.\d{3} +≥ 0\.85/);
  });
});
describe("context eval, its pure parts", () => {
  it("cuts the hole's line at the cursor and keeps the lines after it", () => {
    const text = "a\r\nfoo(bar);\nnext\n";
    const offset = "a\r\nfoo(".length;
    expect(textAtHole(text, offset)).toBe("a\r\nfoo(\nnext\n");
    expect(positionAt(text, offset)).toEqual({ line: 1, character: 4 });
    expect(positionAt("x\ry", 2)).toEqual({ line: 1, character: 0 });
  });

  it("counts a hole as recalled when a request holds a declaration line, commented out or not", () => {
    const hole = {
      declarations: [{ file: "a.ts", line: 0, text: "export function f(x: number): number {" }],
    };
    const sent = (prompt: string, suffix = "") => ({ model: "m", prompt, suffix });
    expect(recalled(hole, sent("// a.ts\n  export function f(x: number): number {\n"))).toBe(true);
    expect(recalled(hole, sent("// a.ts\n// export function f(x: number): number {\n"))).toBe(true);
    expect(recalled(hole, sent("x", "export function f(x: number): number {"))).toBe(true);
    expect(recalled(hole, sent("export function f(x: number) {"))).toBe(false);
    expect(recalled(hole, undefined)).toBe(false);
  });

  it("samples and chooses tabs deterministically, within the caps", () => {
    const holes = syntheticHoles().map((h, i) => ({ ...h, id: `${h.file}:${i}` }));
    const caps = { perStratum: 2, perFile: 1, stratified: true };
    const once = sampleHoles(holes, caps);
    expect(sampleHoles([...holes].reverse(), caps)).toEqual(once);
    for (const kind of ["named", "namespace", "default"] as const) {
      for (const crossPackage of [false, true]) {
        const ofStratum = once.filter((h) => h.stratum === kind && h.crossPackage === crossPackage);
        expect(ofStratum.length).toBeLessThanOrEqual(2);
        expect(new Set(ofStratum.map((h) => h.file)).size).toBe(ofStratum.length);
      }
    }
    // Imports across packages are a stratum of their own: the sample keeps them however few they are.
    expect(once.filter((h) => h.crossPackage).length).toBeGreaterThan(0);
    const files = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, "0")}.ts`);
    const tabs = chooseTabs(once[0]!, [...files, "a0.ts", "d0.ts", "i0.ts"]);
    expect(tabs).toEqual(chooseTabs(once[0]!, [...files, "a0.ts", "d0.ts", "i0.ts"].reverse()));
    expect(tabs).toHaveLength(4);
    expect(tabs).toContain("d0.ts");
    expect(tabs).not.toContain("a0.ts");
    expect(tabs).not.toContain("i0.ts");
    // A proportional sample: one stratum, the caps over the whole corpus.
    const proportional = sampleHoles(holes, { perStratum: 3, perFile: 1, stratified: false });
    expect(proportional).toHaveLength(3);
    expect(new Set(proportional.map((h) => h.file)).size).toBe(3);
  });

  it("takes the lower value at a quantile", () => {
    expect(quantile([3, 1, 2, 4], 0.5)).toBe(3);
    expect(quantile([5], 0.99)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("pins each held-out corpus to an exact version and a SHA-512 integrity", () => {
    for (const spec of HELD_OUT) {
      expect(spec.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(spec.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    }
  });

  it("pins each Debian corpus to a file of the archive's pool and its SHA-256, at least one per language", () => {
    for (const spec of DEBIAN_CORPORA) {
      expect(spec.file.pool).toMatch(
        /^pool\/main\/[a-z0-9]+\/[^/]+\/[^/]+\.(?:orig\.tar\.(?:gz|xz|bz2)|deb)$/,
      );
      expect(spec.file.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    const languages = new Set(DEBIAN_CORPORA.map((spec) => spec.language));
    expect([...languages].sort()).toEqual(["C", "C#", "C++", "Go", "Java", "PHP", "Python", "Ruby", "Rust"]);
  });
});

/** Synthetic holes over several files and kinds, for the sampling test. */
function syntheticHoles() {
  const kinds = ["named", "namespace", "default"] as const;
  return Array.from({ length: 30 }, (_, i) => ({
    id: "",
    file: `a${i % 4}.ts`,
    line: i,
    character: 0,
    offset: 0,
    name: "X",
    stratum: kinds[i % 3]!,
    pattern: "call" as const,
    declarations: [{ file: "d0.ts", line: 0, text: "export function X() {" }],
    imports: ["i0.ts"],
    crossPackage: i % 5 === 0,
  }));
}
