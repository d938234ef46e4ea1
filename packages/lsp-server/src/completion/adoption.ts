import type { OpenDocument } from "../documents/documents.js";
import { type Anchor, typedSince } from "./anchor.js";
import type { FirstTokenClock } from "./first-token-clock.js";
import type { FittedCompletion } from "./postprocess.js";
import type { SharedStream } from "./shared-stream.js";
import type { Slot } from "./slot.js";
import type { Served, SuggestionMemory } from "./suggestion-memory.js";
import type { Suggestion } from "./type-through.js";

/**
 * What following the stream in flight gave: it served the request, its text parted ways with the typing, there was
 * none to follow, it ended here with nothing (`empty`), or its first text is late (`hedged`: a fresh request goes
 * out beside it, and `served` resolves with what the late stream serves if it comes first).
 */
export type Shared =
  | { kind: "served"; result: FittedCompletion; suggestion: Suggestion }
  | { kind: "diverged" }
  | { kind: "none" }
  | { kind: "empty" }
  | { kind: "hedged"; served: Promise<Served | undefined> };

/** What adopting a stream reads: the suggestions remembered, the first-token clock, and whether to hedge. */
export interface AdoptionParts {
  memory: SuggestionMemory;
  clock: FirstTokenClock;
  /** Hedge a stream whose first token is late (see `EngineOptions.hedge`). */
  hedge: boolean;
}

/**
 * Let the stream in flight for a document (`running`) serve a request at `here` if what was typed since its anchor
 * may still be the start of its text: follow it until it answers (`served`) or turns out not to fit (`diverged`);
 * past its suggestion (accepted, typed to its end), until its hot streak has the next one. One that cannot serve
 * `here` is aborted unless another request still waits for it (`none`). A stream whose first text is late is
 * hedged (`hedged`).
 *
 * @param current the document's stream in flight now (it may change while this waits).
 */
export async function adopt(
  parts: AdoptionParts,
  slot: Slot,
  running: SharedStream | undefined,
  current: () => SharedStream | undefined,
  doc: OpenDocument,
  here: Anchor,
): Promise<Shared> {
  if (!running || running.stale) return { kind: "none" };
  const typed = typedSince(doc, running.anchor, here);
  if (!running.canServe(typed)) {
    if (current() === running) running.dropIfUnfollowed("superseded");
    return { kind: "none" };
  }
  // Its settled lines, seen from here: what is left of them after what was typed (until the next edit, after
  // which this request is about to be superseded).
  const version = doc.version;
  const view = (text: string) =>
    doc.version !== version
      ? null
      : (parts.memory.typeThrough({ uri: doc.uri, ...running.anchor, text, replaceEnd: 0 }, doc, here)
          ?.text ?? null);
  const following = running.follow(slot, typed ?? "", view);
  // A stream that cannot be checked against the typing yet (no text came, and something was typed since its
  // anchor) is followed alone only until its first token is late.
  const unknown = parts.hedge && typed !== "" && running.raw === "" && running.streamed;
  const late = unknown ? parts.clock.late(running) : undefined;
  if (late && (await Promise.race([following.then(() => false), late]))) {
    // Its first text is late: a fresh request goes out beside it; whichever serves first answers, and the other
    // is left (aborted once nobody follows it).
    const served = following.then(() => {
      const result = slot.settled ? undefined : parts.memory.serve(doc, here);
      if (!result) running.dropIfUnfollowed("superseded");
      return result;
    });
    return { kind: "hedged", served };
  }
  await following;
  if (slot.settled) return { kind: "none" };
  let served = parts.memory.serve(doc, here);
  if (!served && running.continuing) {
    // Past its suggestion (accepted, or typed to its end): the hot streak it is still reading is the next one,
    // as soon as its paragraph is whole.
    await running.until(() => parts.memory.serve(doc, here) !== undefined, slot);
    if (slot.settled) return { kind: "none" };
    served = parts.memory.serve(doc, here);
  }
  if (served) return { kind: "served", ...served };
  // It ended, at this very place, with nothing to suggest: asking again would find nothing either.
  if (typed === "" && running.outcome === "completed" && !running.suggestion && !running.stale)
    return { kind: "empty" };
  if (current() === running) running.dropIfUnfollowed("superseded");
  return { kind: "diverged" };
}
