// infill-lsp next-edit eval: multi-site changes found in pinned corpora, replayed as a user makes them through the
// built server, against the simulator's edit model; every figure measured in this run.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { plannedCorpora, selectedCorpora } from "../corpus-plan.js";
import { serverLine } from "../server-line.js";
import { CASE_LABELS } from "./edit-case.js";
import { type CorpusEditResult, evaluateEdits } from "./evaluate-edits.js";
import { FORMAT_NAMES, type FormatName } from "./prompt-reading.js";
import { formatEditCorpus, formatEditSummary } from "./report.js";

// Relative to the bundle in .bench/ (eval/run.mjs), one level below the package root.
const BIN = process.env.INFILL_EVAL_BIN ?? fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../..", import.meta.url));

/** Cases per kind and corpus (`INFILL_EVAL_NE_CASES`), at most 2 per file: a run of a few minutes on 2 cores. */
const PER_KIND = Number(process.env.INFILL_EVAL_NE_CASES ?? 8);
/** The formats asked in (`INFILL_EVAL_NE_FORMATS=deepseek,zeta`, or `all`); deepseek, the default provider's, alone. */
const formatList = process.env.INFILL_EVAL_NE_FORMATS ?? "deepseek";
const formats = (formatList === "all" ? FORMAT_NAMES.join(",") : formatList)
  .split(",")
  .map((name) => name.trim())
  .filter((name): name is FormatName => (FORMAT_NAMES as readonly string[]).includes(name));

console.log(`infill-lsp next-edit eval (Node ${process.version})`);
console.log(`server: ${serverLine(BIN, REPO_ROOT)}`);
console.log(
  `Cases, found in each corpus by lexical oracles independent of the server and of the simulator (eval/next-edit/):\n` +
    Object.entries(CASE_LABELS)
      .map(([kind, label]) => `  ${kind}: ${label}`)
      .join("\n") +
    "\neach with every site within 30 lines, and the change unambiguous (every occurrence of the name is a site; no\n" +
    "third line shaped like the twins within 40 lines). Replayed through the built server over JSON-RPC: the first\n" +
    "site typed (the old text deleted, the new typed a key at a time), textDocument/copilotInlineEdit asked at the\n" +
    "cursor, the answer applied (every edit; and Tab, Tab, Tab: the first edit applied, asked again, until none). The\n" +
    "model: @infill/sim's edit model, in each format through its dialect (deepseek: DeepSeek's /beta/chat/completions;\n" +
    "zeta: OpenAI-compatible /v1/completions; sweep: llama.cpp /completion; instinct: Ollama /api/chat).\n" +
    "right: the first edit shown makes one of the remaining sites exactly (lone: nothing shown); exact: the document\n" +
    "then is the finished change; delta-chrF: Zed's (β 0.5, whitespace collapsed); a false suggestion: an edit that\n" +
    "makes no remaining site. The prompt carries the edit: its history shows the first site's line before and after;\n" +
    "the region holds the next site: the site nearest the cursor is in the region. Tokens: the server's estimate\n" +
    "(3.5 characters a token). One server per corpus and format runs the cases one after the other, so each prompt's\n" +
    "history also holds the earlier cases' edits, as a session would. Latency: the client's round trip of\n" +
    "textDocument/copilotInlineEdit, the first ask sent right after the last key (so it holds the rest of the\n" +
    "server's 50 ms pause, and the sim's answer, in this process), and the Tab asks served from memory. Progress goes\n" +
    "to stderr.\n",
);

const scratch = mkdtempSync(path.join(tmpdir(), "infill-ne-eval-"));
// Roles of this eval's own: zod is its tuning corpus (its misses read), every other one held out (the roles the
// context eval gives the Debian corpora say what that eval was tuned on).
const { corpora, said } = selectedCorpora(
  plannedCorpora(REPO_ROOT, scratch).map((planned) => ({
    ...planned,
    load: async () => ({
      ...(await planned.load()),
      role: planned.name === "zod" ? ("tuning" as const) : ("held out" as const),
    }),
  })),
);
if (said) console.log(said);
// INFILL_EVAL_NE_MISSES=<file>: every case not exact, one JSON object a line (to read the tuning corpora's).
const missesFile = process.env.INFILL_EVAL_NE_MISSES;
if (missesFile) writeFileSync(missesFile, "");

const results: CorpusEditResult[] = [];
const started = performance.now();
try {
  for (const planned of corpora) {
    const corpus = await planned.load();
    const result = await evaluateEdits(corpus, {
      bin: BIN,
      caps: { perKind: PER_KIND, perFile: 2 },
      formats,
      progress: (line) => console.error(`  … ${line}`),
    });
    results.push(result);
    console.log(`${formatEditCorpus(result).join("\n")}\n`);
    if (missesFile) {
      for (const format of result.formats) {
        for (const run of format.runs.filter((r) => !r.exact || !r.tabExact || r.falseShown > 0)) {
          const { edit, edits, carriesEvent, carriesNext, carriesAll, requests, failure, falseSamples } = run;
          const miss = { corpus: corpus.name, role: corpus.role, format: format.format, edit, edits };
          const seen = {
            carriesEvent,
            carriesNext,
            carriesAll,
            requests,
            failure,
            exact: run.exact,
            falseSamples,
          };
          appendFileSync(missesFile, `${JSON.stringify({ ...miss, ...seen, body: run.body })}\n`);
        }
      }
    }
    rmSync(corpus.root, { recursive: true, force: true });
  }
  console.log(formatEditSummary(results).join("\n"));
  console.log(`\n(${results.length} corpora in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
