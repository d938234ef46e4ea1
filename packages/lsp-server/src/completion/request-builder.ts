import type { FimContext, FimRequest } from "@infill/core";
import { type ContextArm, localDay } from "@infill/core/usage";
import type { Position } from "vscode-languageserver";
import { type ContextBlock, EMPTY_BLOCK } from "../context/block/block.js";
import type { ContextSource } from "../context/context-loader.js";
import type { OpenDocument } from "../documents/documents.js";
import type { Settings } from "../settings/settings.js";
import type { Anchor } from "./anchor.js";
import type { ContextFigures } from "./answer.js";
import { heldOut } from "./holdout.js";
import { completionMode, type PostProcessContext } from "./postprocess.js";
import { buildPromptWindow } from "./prompt-window.js";
import type { StreamStart } from "./shared-stream.js";

/** The repository context of one request: the block that goes first, and its figures (none with context off). */
export interface ChosenContext {
  block: ContextBlock;
  figures: ContextFigures | undefined;
  /** Whether the request carries context (`on`, even when none was found), was held out, or context is off. */
  arm: ContextArm;
}

/** One upstream request, ready to send. */
export interface BuiltRequest {
  request: FimRequest;
  /** What post-processing judges its text against. */
  ctx: PostProcessContext;
  /** Whether to stream it (see {@link buildRequest}). */
  streamed: boolean;
}

/** The context block's budget, in estimated tokens: `context.maxTokens`, and never more than half the request. */
export function contextBudget(settings: Settings): number {
  return Math.min(settings.context.maxTokens, Math.floor(settings.contextTokens / 2));
}

/**
 * The repository context for a request at `here` (UTF-16); an empty block when context is off, none is had, or
 * `context.holdout` holds this request out (then none is chosen at all). `day` (`YYYY-MM-DD`, default today) is part
 * of the holdout choice. `quietMs`: the debounce the request waits while the context is chosen (see ContextSource).
 */
export async function chooseContext(
  source: ContextSource | undefined,
  doc: OpenDocument,
  here: Position,
  settings: Settings,
  day: string = localDay(),
  quietMs = 0,
): Promise<ChosenContext> {
  if (!source || !settings.context.enabled) return { block: EMPTY_BLOCK, figures: undefined, arm: "off" };
  if (heldOut(doc.uri, here.line, day, settings.context.holdout)) {
    return { block: EMPTY_BLOCK, figures: undefined, arm: "holdout" };
  }
  const { block, ms, recomputed } = await source.block(doc, here, contextBudget(settings), quietMs);
  // A snippet from an open buffer holding NUL would make the request binary: leave the context out then.
  const usable = block.text.includes("\0") ? EMPTY_BLOCK : block;
  return {
    block: usable,
    figures: {
      ms,
      snippets: usable.snippets.length,
      tokens: usable.tokens,
      outlineTokens: outlineTokens(usable),
      recomputed,
    },
    arm: "on",
  };
}

/** Estimated tokens of a block's member outlines (their text, at the block's 3.5 characters per token). */
function outlineTokens(block: ContextBlock): number {
  let chars = 0;
  for (const snippet of block.snippets) if (snippet.kind === "outline") chars += snippet.text.length + 1;
  return Math.ceil(chars / 3.5);
}

/**
 * The FIM request for a cursor: the window of the document around it within what `contextTokens` leaves after
 * the context block (the block's share is what it really uses: context not found gives its share back), one line
 * or a block as `lineMode` decides, and whether to stream it. Undefined for a binary document (NUL in the window).
 *
 * A block is streamed, so that it can be cut as soon as post-processing knows where it ends. One line stops at the
 * line break on the server (which bills nothing past it); it is streamed too unless `streamSingleLines` is false,
 * so that a request still running when the user types on can be followed or dropped on its first text.
 */
export function buildRequest(
  doc: OpenDocument,
  here: Position,
  anchor: Anchor,
  context: ContextBlock,
  settings: Settings,
  streamSingleLines = true,
): BuiltRequest | undefined {
  const window = buildPromptWindow(doc.buffer, here, {
    budgetTokens: settings.contextTokens - context.tokens,
  });
  if (window.prompt.includes("\0") || window.suffix.includes("\0")) return undefined;
  const ctx: PostProcessContext = {
    lineBefore: anchor.linePrefix,
    lineAfter: anchor.lineRest,
    suffix: window.suffix,
    mode: completionMode(anchor.linePrefix, anchor.lineRest, settings.lineMode),
  };
  const singleLine = ctx.mode === "single-line";
  const request: FimRequest = {
    prompt: window.prompt,
    // The provider puts the block where it belongs: before the prompt, or (llama.cpp) in its own field.
    ...(context.text === "" ? {} : { context: fimContext(context) }),
    suffix: window.suffix,
    max_tokens: settings.maxTokens,
    temperature: settings.temperature,
    ...(singleLine ? { stop: ["\n"] } : {}),
  };
  return { request, ctx, streamed: !singleLine || streamSingleLines };
}

/** A context block as the provider-neutral request carries it (see FimContext in @infill/core). */
function fimContext(block: ContextBlock): FimContext {
  return {
    snippets: block.snippets.map(({ path, text }) => ({ path, text })),
    text: block.text,
    pathLine: block.pathLine,
  };
}

/** How {@link streamStart} asks. */
export interface StartOptions {
  /** After an accepted suggestion (a prefetch): from the end of its line, a block. */
  next: boolean;
  /** Ask for the tokens' log probabilities (to rank against alternatives). */
  withLogprobs: boolean;
  /** See {@link buildRequest}. Default true. */
  streamSingleLines?: boolean;
}

/**
 * Everything a stream for a cursor starts with: the request ({@link buildRequest}), the document and anchor, the
 * context's figures, and how far to read past the suggestion (the hot streak, within the request's own budget).
 * Undefined for a binary document.
 */
export function streamStart(
  doc: OpenDocument,
  here: Position,
  anchor: Anchor,
  context: ChosenContext,
  settings: Settings,
  options: StartOptions,
): StreamStart | undefined {
  // After an accepted block, the cursor sits at the end of its last line: what comes next is the next lines.
  const lineMode = options.next && anchor.lineRest.trim() === "" ? "multi-line" : settings.lineMode;
  const built = buildRequest(
    doc,
    here,
    anchor,
    context.block,
    { ...settings, lineMode },
    options.streamSingleLines,
  );
  if (!built) return undefined;
  return {
    uri: doc.uri,
    anchor,
    ...built,
    // Ranked against the alternatives by the mean log probability of its tokens.
    request: options.withLogprobs ? { ...built.request, logprobs: 1 } : built.request,
    context: context.figures,
    contextArm: context.arm,
    streakTokens: Math.min(settings.hotStreak.maxTokens, settings.maxTokens),
  };
}
