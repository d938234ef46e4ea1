import type { Position, ProgressToken } from "vscode-languageserver";
import { type PostProcessContext, settledLines } from "./postprocess.js";

/**
 * The notification that carries a partial result: `{ token, items }`, `items` shaped like the final answer's
 * (`InlineCompletionItem[]`), for the `textDocument/inlineCompletion` request whose params held `token` as
 * `partialResultToken`.
 */
export const PARTIAL_NOTIFICATION = "$/infill/partial";

/** What the server advertises (`capabilities.experimental`) and a client declares to get partial results. */
export const PARTIAL_CAPABILITY = { infill: { partialResults: true } } as const;

/** The text settled so far for one request: a prefix, in whole lines, of its answer's text. */
export interface PartialText {
  /** Text to insert at `position` (lines joined with `"\n"`). */
  readonly text: string;
  /** The request's cursor, UTF-16. */
  readonly position: Position;
}

/** Told each {@link PartialText} of a request; each one extends the previous one. */
export type PartialListener = (partial: PartialText) => void;

/** A stream being read: the raw text so far and what post-processing judges it against. */
export interface PartialSource {
  readonly raw: string;
  readonly ctx: PostProcessContext;
}

/**
 * The token to send partial results of one inline completion request to, or undefined when that client gets
 * none: it must have said it understands them (client capability `experimental.infill.partialResults: true`)
 * and passed a `partialResultToken` with the request (inline completion has no standard partial results, and
 * the standard's rule that the final answer then be empty would break the clients that ignore them).
 */
export function partialResultToken(capabilities: unknown, params: unknown): ProgressToken | undefined {
  const wanted = (capabilities as { experimental?: { infill?: { partialResults?: unknown } } } | undefined)
    ?.experimental?.infill?.partialResults;
  if (wanted !== true) return undefined;
  const token = (params as { partialResultToken?: unknown } | undefined)?.partialResultToken;
  return typeof token === "string" || (typeof token === "number" && Number.isInteger(token))
    ? token
    : undefined;
}

/**
 * A listener for a stream (call it after each piece of text arrives) that passes `emit` each new partial:
 * {@link settledLines} of the stream, seen through `view` (the request's own cursor: identity for the request
 * that started the stream, type-through for one that joined it later; `null` hides it). Only growth is emitted:
 * each text extends the previous one, so a line once shown is never taken back. Text without a new line break
 * is not looked at again.
 */
export function partialFeed(
  source: PartialSource,
  emit: (text: string) => void,
  view: (settled: string) => string | null = (settled) => settled,
): () => void {
  let scanned = 0;
  let shown = "";
  return () => {
    const { raw } = source;
    const fresh = raw.indexOf("\n", scanned) !== -1;
    scanned = raw.length;
    if (!fresh) return;
    const settled = settledLines(raw, source.ctx);
    const text = settled === null ? null : view(settled);
    if (text === null || text.length <= shown.length || !text.startsWith(shown)) return;
    shown = text;
    emit(text);
  };
}
