// One case replayed as a user makes it, through the built server over JSON-RPC: the first site typed, the next
// edit asked as copilot-lsp asks it, the answer applied (all of it, and edit by edit, asking again after each, as
// Tab, Tab, Tab does), and what the sim received.
import type { Sim } from "@infill/sim";
import type { EditorSession, InlineEdit } from "../lsp-client.js";
import { deltaChrF } from "./delta-chrf.js";
import {
  afterFirst,
  applyEdits,
  type EditCase,
  finished,
  restAfterFirst,
  type TextEdit,
} from "./edit-case.js";
import { type FormatName, type PromptReading, readPrompt, regionSpan, showsEdit } from "./prompt-reading.js";
import type { SourceText } from "./source-text.js";

/** The upstream paths a next-edit request takes, by format (the sim's dialect for each). */
export const EDIT_PATHS: Record<FormatName, string> = {
  deepseek: "/beta/chat/completions",
  zeta: "/v1/completions",
  sweep: "/completion",
  instinct: "/api/chat",
};

/** What one case came to. */
export interface CaseRun {
  readonly edit: EditCase;
  /** The body of the upstream request that answered the first ask; undefined when none was sent. */
  readonly body: unknown;
  readonly reading: PromptReading | undefined;
  /** The prompt shows the user's edit of the first site. */
  readonly carriesEvent: boolean;
  /** The region holds the site nearest the cursor still to do / every one. */
  readonly carriesNext: boolean;
  readonly carriesAll: boolean;
  /** The first answer's edits. */
  readonly edits: readonly InlineEdit[];
  /** Of them, how many reach outside the region the request showed. */
  readonly outside: number;
  /** Edits for a version other than the document's when they came. */
  readonly stale: number;
  /** The first answer's edits all applied: the finished change exactly; its delta-chrF. */
  readonly exact: boolean;
  readonly chrf: number;
  /** Tab, Tab, Tab: the first edit of each answer applied and the next edit asked again, until none comes. */
  readonly tabExact: boolean;
  readonly tabChrf: number;
  readonly tabs: number;
  /** The first edit shown makes one of the remaining sites exactly (for a lone case: nothing is shown). */
  readonly firstRight: boolean;
  /** Edits of the first answer that make no remaining site: suggested where the user would not edit. */
  readonly falseEdits: number;
  /**
   * Edits shown in the Tab walk (each answer's first, as copilot-lsp shows one) that made no site still to do then:
   * a site not there, or the change already finished.
   */
  readonly falseShown: number;
  /** What the false edits shown were (`line: old → new`), for the misses file. */
  readonly falseSamples: readonly string[];
  /** Upstream next-edit requests during the case (the first ask, and any after the answer ran out). */
  readonly requests: number;
  /** Of them, those made before the last edit of the walk was applied (1: the walk came from one answer). */
  readonly walkRequests: number;
  /** The first ask's round trip, ms (the rest of the pause after the last key, the sim, the server). */
  readonly askMs: number | undefined;
  /** The round trips of the Tab asks answered with no upstream request (the rest of an answer), ms. */
  readonly memoryMs: readonly number[];
  /** What went wrong in the server or the client (a request that failed, the process gone), if anything. */
  readonly failure: string | undefined;
}

/** The LSP position of an offset in a text whose lines end in `\n`. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, character: offset - lineStart };
}

/** The offset of an LSP position in a text whose lines end in `\n`. */
export function offsetOf(text: string, position: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const at = text.indexOf("\n", offset);
    if (at === -1) return text.length;
    offset = at + 1;
  }
  return offset + position.character;
}

/** `text` with an answer's edits made (positions in `text`). */
export function applyInlineEdits(text: string, edits: readonly InlineEdit[]): string {
  const offsets: TextEdit[] = edits.map((edit) => ({
    start: offsetOf(text, edit.range.start),
    end: offsetOf(text, edit.range.end),
    text: edit.text,
  }));
  let out = text;
  for (const edit of offsets.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** Type the first site as a user does: the old text deleted in one change, the new one typed a key at a time. */
async function typeFirst(editor: EditorSession, file: string, text: string, edit: TextEdit) {
  const start = positionOf(text, edit.start);
  if (edit.end > edit.start) await editor.change(file, { start, end: positionOf(text, edit.end) }, "");
  let at = start;
  for (const key of edit.text) {
    await editor.change(file, { start: at, end: at }, key);
    at = { line: at.line, character: at.character + key.length };
  }
  return at;
}

/**
 * Replay a case in an editor whose server asks `sim` in `format`: open the file, type the first site, ask for the
 * next edit at the cursor, read the request the sim received, apply the answer (all of it for the exact match;
 * then the first edit of each answer, asking again, for Tab, Tab, Tab), close the file.
 */
export async function replayCase(
  editor: EditorSession,
  sim: Sim,
  format: FormatName,
  source: SourceText,
  edit: EditCase,
): Promise<CaseRun> {
  const file = edit.file;
  const asked = afterFirst(source.text, edit);
  const expected = finished(source.text, edit);
  const requests = () => sim.requests.filter((r) => r.path === EDIT_PATHS[format]).length;
  const before = requests();
  const seen = sim.requests.length;
  let failure: string | undefined;
  let edits: InlineEdit[] = [];
  let tabText = asked;
  let tabs = 0;
  let stale = 0;
  let askMs: number | undefined;
  const memoryMs: number[] = [];
  let walkRequests: number | undefined;
  const walk = new SiteWalk(restAfterFirst(edit));
  await editor.open(file, source.text);
  try {
    const cursor = await typeFirst(editor, file, source.text, edit.first);
    const asking = performance.now();
    edits = await editor.inlineEdit(file, cursor);
    askMs = performance.now() - asking;
    stale += edits.filter((e) => e.textDocument.version !== editor.version(file)).length;
    // Tab, Tab, Tab: copilot-lsp applies the first edit and asks again from its end, at the new version.
    let answer = edits;
    while (answer.length > 0 && tabs <= edit.rest.length + 2) {
      const next = answer[0]!;
      walkRequests = requests() - before;
      await editor.change(file, next.range, next.text);
      walk.shown(tabText, next);
      tabText = applyInlineEdits(tabText, [next]);
      tabs++;
      const end = positionOf(tabText, offsetOf(tabText, next.range.start) + next.text.length);
      const sent = requests();
      const started = performance.now();
      answer = await editor.inlineEdit(file, end);
      if (requests() === sent) memoryMs.push(performance.now() - started);
      stale += answer.filter((e) => e.textDocument.version !== editor.version(file)).length;
    }
    // An answer still coming after the walk's bound (edits shown on and on) is shown too.
    if (answer.length > 0) walk.shown(tabText, answer[0]!);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  await editor.close(file).catch(() => undefined);
  if (editor.exited()) failure ??= "the server exited";
  const body = sim.requests.slice(seen).find((r) => r.path === EDIT_PATHS[format])?.body;
  const reading = body === undefined ? undefined : readPrompt(body, format);
  const all = applyInlineEdits(asked, edits);
  const right = edits.map((shown) => makesSites(asked, shown, restAfterFirst(edit)));
  return {
    edit,
    body,
    reading,
    ...coverage(reading, format, source, edit, asked),
    edits,
    outside: reading ? outsideRegion(reading, asked, edits, edit) : 0,
    stale,
    exact: all === expected,
    chrf: deltaChrF(asked, expected, all),
    tabExact: tabText === expected,
    tabChrf: deltaChrF(asked, expected, tabText),
    tabs,
    firstRight: edit.rest.length === 0 ? edits.length === 0 : right[0] === true,
    falseEdits: right.filter((ok) => !ok).length,
    falseShown: walk.falseShown,
    falseSamples: walk.falseSamples,
    requests: requests() - before,
    walkRequests: walkRequests ?? requests() - before,
    askMs,
    memoryMs,
    failure,
  };
}

/** The sites still to do along a Tab walk (offsets in the text as it is), and the edits shown that made none. */
class SiteWalk {
  falseShown = 0;
  readonly falseSamples: string[] = [];
  #sites: TextEdit[];

  constructor(sites: readonly TextEdit[]) {
    this.#sites = [...sites];
  }

  /** `shown` is shown on `text` and applied: the sites it makes are done, the rest move with it. */
  shown(text: string, shown: InlineEdit): void {
    const start = offsetOf(text, shown.range.start);
    const end = offsetOf(text, shown.range.end);
    const right = makesSites(text, shown, this.#sites);
    if (!right) {
      this.falseShown++;
      const line = text.slice(text.lastIndexOf("\n", start - 1) + 1, text.indexOf("\n", end) >>> 0).trim();
      this.falseSamples.push(
        `${shown.range.start.line + 1}: ${JSON.stringify(text.slice(start, end))} → ${JSON.stringify(shown.text)} in ${line.slice(0, 120)}`,
      );
    }
    // The sites it reaches are made (or, by a false edit, spoilt): none is left to do there.
    const delta = shown.text.length - (end - start);
    this.#sites = this.#sites
      .filter((site) => site.start > end || site.end < start)
      .map((site) =>
        site.start > end ? { ...site, start: site.start + delta, end: site.end + delta } : site,
      );
  }
}

/**
 * Whether an edit shown makes remaining sites exactly: the document with it applied is the document with the sites
 * it reaches (those touching its range) made, and it reaches at least one. An edit over two sites of a line counts.
 */
export function makesSites(text: string, shown: InlineEdit, sites: readonly TextEdit[]): boolean {
  const start = offsetOf(text, shown.range.start);
  const end = offsetOf(text, shown.range.end);
  const reached = sites.filter((site) => site.start <= end && site.end >= start);
  return reached.length > 0 && applyInlineEdits(text, [shown]) === applyEdits(text, reached);
}

/** Whether the prompt carried the user's edit, and the region the sites still to do. */
function coverage(
  reading: PromptReading | undefined,
  format: FormatName,
  source: SourceText,
  edit: EditCase,
  asked: string,
): { carriesEvent: boolean; carriesNext: boolean; carriesAll: boolean } {
  if (!reading) return { carriesEvent: false, carriesNext: false, carriesAll: false };
  const line = source.lineOf(edit.first.start);
  const askedLines = asked.split("\n");
  const carriesEvent = showsEdit(reading, format, source.lines[line]!, askedLines[line]!);
  const span = regionSpan(reading.regionLines, askedLines, line);
  const sites = restAfterFirst(edit).map((site) => positionOf(asked, site.start).line);
  const inside = (site: number) => span !== undefined && site >= span.start && site <= span.end;
  const nearest = [...sites].sort((a, b) => Math.abs(a - line) - Math.abs(b - line))[0];
  return {
    carriesEvent,
    carriesNext: nearest !== undefined && inside(nearest),
    carriesAll: sites.every(inside),
  };
}

/** How many edits reach outside the region the request showed (or all, when the region is not found). */
function outsideRegion(
  reading: PromptReading,
  asked: string,
  edits: readonly InlineEdit[],
  edit: EditCase,
): number {
  const askedLines = asked.split("\n");
  const span = regionSpan(reading.regionLines, askedLines, positionOf(asked, edit.first.start).line);
  if (!span) return edits.length;
  return edits.filter(
    (e) =>
      e.range.start.line < span.start ||
      e.range.end.line > span.end + 1 ||
      (e.range.end.line === span.end + 1 && e.range.end.character > 0),
  ).length;
}
