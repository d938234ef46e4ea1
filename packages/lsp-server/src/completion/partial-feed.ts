import type { Position } from "vscode-languageserver";
import { type PostProcessContext, settledLines } from "./postprocess.js";

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
 * A listener for a stream (call it after each piece of text arrives) that passes `emit` each new partial:
 * {@link settledLines} of the stream, seen through `view` (the request's own cursor: identity for the request
 * that started the stream, type-through for one that joined it later; `null` hides it), with the settled text it
 * was seen from. Only growth is emitted: each text extends the previous one, so a line once shown is never taken
 * back. Text without a new line break is not looked at again.
 */
export function partialFeed(
  source: PartialSource,
  emit: (text: string, settled: string) => void,
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
    if (settled === null) return;
    const text = view(settled);
    if (text === null || text.length <= shown.length || !text.startsWith(shown)) return;
    shown = text;
    emit(text, settled);
  };
}
