// infill-lsp context eval: repository context off vs on, on pinned corpora, every figure measured in this run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Corpus, HELD_OUT, packageCorpus, repositoryCorpus } from "./corpus.js";
import { type CorpusResult, evaluateCorpus } from "./evaluate.js";
import { formatCorpus, formatSummary } from "./report.js";
import type { SampleCaps } from "./sample.js";

// One level below the package root (eval/ in source, .bench/ bundled), like the bench.
// `INFILL_EVAL_BIN` runs another build instead (the one with the tree-sitter TypeScript parser: see build.mjs).
const BIN = process.env.INFILL_EVAL_BIN ?? fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
/** Up to 400 holes per import kind and corpus: the whole eval takes a few minutes on 2 cores. */
const CAPS: SampleCaps = { perKind: 400, perFile: 3 };

console.log(`infill-lsp context eval (Node ${process.version})`);
console.log(
  "A hole: a line using an identifier X imported from another corpus file, the cursor right after X( new X( X. or X<\n" +
    "(ns.X… for namespace imports), the rest of the line removed. Recall: the share of holes whose request\n" +
    "(prompt + suffix, as the sim received it) contains one of X's declaration lines, trimmed (TypeScript's checker\n" +
    "resolves X through aliases). One server per configuration; progress goes to stderr.\n",
);

const scratch = mkdtempSync(path.join(tmpdir(), "infill-eval-"));
const corpora: Array<() => Promise<Corpus>> = [
  ...HELD_OUT.map((spec) => () => packageCorpus(spec, REPO_ROOT, scratch)),
  () => repositoryCorpus(REPO_ROOT, scratch),
];
const results: CorpusResult[] = [];
try {
  for (const corpus of corpora) {
    const result = await evaluateCorpus(await corpus(), {
      bin: BIN,
      caps: CAPS,
      progress: (line) => console.error(`  … ${line}`),
    });
    results.push(result);
    console.log(`${formatCorpus(result).join("\n")}\n`);
  }
  console.log(formatSummary(results).join("\n"));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
