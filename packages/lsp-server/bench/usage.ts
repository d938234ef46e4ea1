// What following suggestions costs per keystroke (accept inference and the places of retention checks), side by
// side with the document sync it adds to, and what one retention check costs.
import type { Suggestion } from "../src/completion/type-through.js";
import { Documents } from "../src/documents/documents.js";
import { retainedChars } from "../src/stats/retention.js";
import { SuggestionOutcomes } from "../src/stats/suggestion-outcomes.js";
import type { Timers } from "../src/stats/timers.js";
import { UsageTracker } from "../src/stats/usage-tracker.js";
import { report } from "./harness.js";

/** Timers that never fire: the checks stay pending, so every place is followed while the bench types. */
const STILL: Timers = { now: () => 0, schedule: () => () => {} };

/** Per keystroke on a 5 MB document: its sync alone, and with `taken` suggestions followed (one open at the cursor). */
export function usageBench(): void {
  const line = "export const value = compute(alpha, beta, gamma); // a line of ordinary code\n";
  const lines = Math.ceil((5 * 1024 * 1024) / line.length);
  const text = line.repeat(lines);
  const uri = "file:///big.ts";
  const keystroke = (documents: Documents, follow: ((changes: never[]) => void) | undefined, n: number) => {
    const middle = Math.floor(lines / 2);
    let character = 10;
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const applied = documents.didChange({
        textDocument: { uri, version: i + 2 },
        contentChanges: [
          { range: { start: { line: middle, character }, end: { line: middle, character } }, text: "x" },
        ],
      });
      follow?.(applied!.changes as never[]);
      character++;
    }
    return ((performance.now() - t) / n) * 1000;
  };
  const N = 20_000;
  const plain = new Documents();
  plain.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
  // Warmed up first, so that neither side pays for the compiler.
  keystroke(plain, undefined, N);
  const alone = keystroke(plain, undefined, N);

  let takes = 0;
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
  const outcomes = new SuggestionOutcomes<string>({
    count: (_scope, delta) => {
      takes += delta.accepted;
    },
    buffer: (u) => documents.get(u)?.buffer,
    horizons: () => [30, 120, 300, 600],
    clientReportsShown: () => false,
    timers: STILL,
  });
  // 200 suggestions taken earlier in the file (each line starts with its text), awaiting their checks, and one open
  // where the user types.
  const taken = 200;
  for (let i = 0; i < taken; i++) {
    const anchor = { line: i * 50, character: 0 };
    const s: Suggestion = {
      uri,
      ...anchor,
      linePrefix: "",
      lineRest: "",
      text: "export const",
      replaceEnd: 0,
    };
    outcomes.answered(uri, s, "", { line: anchor.line, character: s.text.length }, 1, () => "scope");
  }
  const middle = Math.floor(lines / 2);
  const open: Suggestion = {
    uri,
    line: middle,
    character: 10,
    linePrefix: line.slice(0, 10),
    lineRest: line.slice(10, -1),
    text: "x".repeat(40),
    replaceEnd: 0,
  };
  outcomes.answered(uri, open, open.text, { line: middle, character: 10 }, 1, () => "scope");
  if (takes !== taken) throw new Error(`expected ${taken} suggestions taken, counted ${takes}`);
  const followed = keystroke(documents, (changes) => outcomes.changed(uri, changes), N);
  console.log(
    `  one-character edit, 5 MB buffer: ${alone.toFixed(2)} µs; with ${taken} suggestions taken followed and one open: ${followed.toFixed(2)} µs`,
  );
  report(
    `edit with ${taken} taken suggestions followed`,
    `${followed.toFixed(2)} µs (${(followed - alone).toFixed(2)} µs more)`,
    "< 50 µs",
    followed < 50,
  );

  // Counting one keystroke and one answer, as the server does for each completion: the change followed, the upstream
  // request counted, the suggestion answered (its place followed, its shown timer started).
  const perCompletion = countingCost();
  console.log(
    `  counting a keystroke and its answer: ${perCompletion.counted.toFixed(2)} µs (the keystroke's document sync alone: ${perCompletion.sync.toFixed(2)} µs)`,
  );
  report(
    "usage counted per keystroke and answer",
    `${perCompletion.counted.toFixed(2)} µs`,
    "< 50 µs",
    perCompletion.counted < 50,
  );

  // One retention check of a 40-line block, edited and partly moved.
  const block = Array.from(
    { length: 40 },
    (_, i) => `    const item${i} = await fetchItem(client, ids[${i}], { retries: 3 });`,
  );
  const now = [
    ...block.slice(20),
    ...block.slice(0, 20).map((l) => l.replace("retries: 3", "retries: 5")),
  ].join("\n");
  const M = 200;
  const t = performance.now();
  let kept = 0;
  for (let i = 0; i < M; i++) kept = retainedChars(block.join("\n"), now);
  const perCheck = (performance.now() - t) / M;
  console.log(
    `  retention check of a 40-line block (half moved, half edited): ${perCheck.toFixed(2)} ms, ${kept} of ${block.join("\n").length} characters kept`,
  );
  report("retention check, 40-line block", `${perCheck.toFixed(2)} ms`, "< 5 ms", perCheck < 5);
}

/** Per keystroke and answer on a 600-line document, typing 40 characters a line: sync alone, and with usage counted. */
function countingCost(): { sync: number; counted: number } {
  const uri = "file:///typing.ts";
  const text = "export const value = compute(alpha, beta, gamma);\n".repeat(600);
  const documents = new Documents();
  documents.didOpen({ textDocument: { uri, languageId: "typescript", version: 1, text } });
  const tracker = new UsageTracker({
    settings: () => ({
      provider: "deepseek",
      model: "deepseek-v4-flash",
      prices: {},
      persist: false,
      retentionChecks: [30, 120, 300, 600],
      contextHoldout: 0,
    }),
    workspaceOf: () => undefined,
    buffer: (u) => documents.get(u)?.buffer,
    directory: undefined,
    serverVersion: "bench",
    log: { error() {}, warn() {}, info() {}, debug() {} },
    timers: STILL,
  });
  let at = { line: 300, character: 0 };
  let version = 1;
  const run = (counted: boolean, n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const newLine = i % 40 === 39;
      const applied = documents.didChange({
        textDocument: { uri, version: ++version },
        contentChanges: [{ range: { start: at, end: at }, text: newLine ? "\n" : "x" }],
      });
      at = newLine ? { line: at.line + 1, character: 0 } : { line: at.line, character: at.character + 1 };
      if (!counted) continue;
      tracker.changed(uri, applied!.changes);
      tracker.upstream(uri, "typescript", "on")({ outcome: "completed", ms: 1 });
      const linePrefix = documents.get(uri)!.buffer.lineAt(at.line).slice(0, at.character);
      const s: Suggestion = {
        uri,
        ...at,
        linePrefix,
        lineRest: "",
        text: "return a + b;",
        replaceEnd: 0,
        contextArm: "on",
      };
      tracker.answered(uri, "typescript", s, s.text, at, 1);
    }
    return ((performance.now() - t) / n) * 1000;
  };
  run(false, 5000);
  run(true, 5000);
  const result = { sync: run(false, 20_000), counted: run(true, 20_000) };
  tracker.dispose();
  return result;
}
