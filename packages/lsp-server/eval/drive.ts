// What an editor does at each hole, and in a replayed editing session; the request bodies the sim received.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Sim } from "@infill/sim";
import type { Position } from "vscode-languageserver-protocol/node";
import type { Corpus } from "./corpus.js";
import type { Hole } from "./hole.js";
import type { CompletionMetrics, EditorSession } from "./lsp-client.js";
import { chooseTabs, stableRank } from "./sample.js";
import type { ScriptedTypeDefinitions, TypeQuestions } from "./type-answers.js";

/** The part of an upstream request body the eval reads. */
export interface SentRequest {
  model: string;
  prompt: string;
  suffix: string;
}

/** `disk`: only the current file is open; `tabs`: the declaring file and three unrelated files are open too. */
export type Scenario = "disk" | "tabs";

/** Every scenario, in report order. */
export const SCENARIOS: readonly Scenario[] = ["disk", "tabs"];

/** One hole's request in one scenario. */
export interface Observation {
  readonly hole: Hole;
  /** The body the sim received for the hole's request; undefined when the server sent none. */
  readonly sent: SentRequest | undefined;
  /** The request's `$/infill/metrics`, when the server sent them (it does for a suggestion). */
  readonly metrics: CompletionMetrics | undefined;
  /** What the editor was asked of types (`infill/typeDefinitions`) during the hole, when it answers them. */
  readonly typeQuestions?: TypeQuestions;
}

/** The text of a file at a hole: the rest of the cursor's line removed, as while typing it. */
export function textAtHole(text: string, offset: number): string {
  const rest = text.slice(offset).search(/[\r\n]/);
  return rest === -1 ? text.slice(0, offset) : text.slice(0, offset) + text.slice(offset + rest);
}

/** The LSP position (line breaks `\n`, `\r\n`, `\r`; UTF-16 characters) of an offset. */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const breaks = before.match(/\r\n|\r|\n/g) ?? [];
  const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
  return { line: breaks.length, character: offset - lineStart };
}

/** Reads corpus files once. */
export class WorkspaceFiles {
  readonly #texts = new Map<string, string>();
  constructor(readonly corpus: Corpus) {}
  text(file: string): string {
    let text = this.#texts.get(file);
    if (text === undefined) {
      text = readFileSync(path.join(this.corpus.root, file), "utf8");
      this.#texts.set(file, text);
    }
    return text;
  }
}

/**
 * For each hole: open the tabs of the scenario (their text from disk), open the current file as it is at the hole,
 * request an inline completion at the cursor, take the body the sim received, close everything. With `types`
 * (the editor answering `infill/typeDefinitions`), it is told which hole is typed, and what it was asked is kept.
 */
export async function runHoles(
  editor: EditorSession,
  sim: Sim,
  files: WorkspaceFiles,
  holes: readonly Hole[],
  scenario: Scenario,
  types?: ScriptedTypeDefinitions,
): Promise<Observation[]> {
  const observations: Observation[] = [];
  for (const hole of holes) {
    const tabs = scenario === "tabs" ? chooseTabs(hole, files.corpus.files) : [];
    for (const tab of tabs) await editor.open(tab, files.text(tab));
    const text = textAtHole(files.text(hole.file), hole.offset);
    await editor.open(hole.file, text);
    const requestsBefore = sim.requests.length;
    const metricsBefore = editor.metrics.length;
    types?.begin(hole);
    await editor.inline(hole.file, positionAt(text, hole.offset));
    const typeQuestions = types?.end();
    const sent = sim.requests.slice(requestsBefore).at(-1)?.body as SentRequest | undefined;
    const metrics = editor.metrics.slice(metricsBefore).at(-1);
    await editor.close(hole.file);
    for (const tab of tabs) await editor.close(tab);
    observations.push({ hole, sent, metrics, ...(typeQuestions ? { typeQuestions } : {}) });
  }
  return observations;
}

/** Code of a corpus file to write again, word by word, below the rest of the file. */
export interface SessionPlan {
  readonly file: string;
  /** 0-based first line of the code in the file. */
  readonly line: number;
  /** The code's lines, joined with `\n`. */
  readonly code: string;
}

/** Lines written again in the replayed session. */
const SESSION_LINES = 16;
/** Lines a session's file has at least, when the sample has such a file: a file of a dozen lines is no window. */
const SESSION_MIN_FILE_LINES = 100;

/**
 * The session's file and code, chosen by stable rank among the sampled holes: the `SESSION_LINES` lines from a
 * hole's line on, so that the code written uses names the file imports. Holes with that many lines after them in
 * a file of at least `SESSION_MIN_FILE_LINES` lines come first.
 */
export function planSession(files: WorkspaceFiles, holes: readonly Hole[]): SessionPlan | undefined {
  const lineCount = (hole: Hole) => files.text(hole.file).split("\n").length;
  const fits = (hole: Hole) =>
    lineCount(hole) >= SESSION_MIN_FILE_LINES && hole.line + SESSION_LINES <= lineCount(hole);
  const ranked = [...holes].sort((a, b) => stableRank(`session ${a.id}`) - stableRank(`session ${b.id}`));
  const hole = ranked.find(fits) ?? ranked[0];
  if (!hole) return undefined;
  const lines = files.text(hole.file).split("\n");
  return {
    file: hole.file,
    line: hole.line,
    code: lines.slice(hole.line, hole.line + SESSION_LINES).join("\n"),
  };
}

/** What a replayed session sent. */
export interface SessionRun {
  /** Words typed (one completion request after each). */
  readonly words: number;
  /** The bodies the sim received, in order (requests answered from memory send none). */
  readonly sent: SentRequest[];
  readonly metrics: CompletionMetrics[];
}

/**
 * Replay writing the plan's code as new code: the file is opened without it, and the code is written at its end,
 * after a blank line, each word (with the whitespace before it) inserted and followed by an inline completion
 * request, as after a pause. New code goes at the end as in the bench's session: there the suffix is short, so
 * the hit ratio measures how stable the prompt stays (a suffix follows the changing prompt and never hits).
 */
export async function replaySession(
  editor: EditorSession,
  sim: Sim,
  files: WorkspaceFiles,
  plan: SessionPlan,
): Promise<SessionRun> {
  const lines = files.text(plan.file).split("\n");
  const kept = [...lines.slice(0, plan.line), ...lines.slice(plan.line + plan.code.split("\n").length)];
  while (kept.length > 0 && kept.at(-1)!.trim() === "") kept.pop();
  const words = plan.code.trim().match(/\s*\S+/g) ?? [];
  const requestsBefore = sim.requests.length;
  const metricsBefore = editor.metrics.length;
  await editor.open(plan.file, `${kept.join("\n")}\n\n`);
  let at: Position = { line: kept.length + 1, character: 0 };
  for (const word of words) {
    at = await editor.insert(plan.file, at, word);
    await editor.inline(plan.file, at);
  }
  await editor.close(plan.file);
  return {
    words: words.length,
    sent: sim.requests.slice(requestsBefore).map((r) => r.body as SentRequest),
    metrics: editor.metrics.slice(metricsBefore),
  };
}
