import type { FimRequest } from "@infill/core";
import type { Upstream, UpstreamEnd } from "../upstream/upstream.js";
import { type FittedCompletion, type PostProcessContext, postProcess } from "./postprocess.js";
import type { Release } from "./upstream-gate.js";

/**
 * The temperatures of an invoked request's other candidates, in order: distinct enough to differ from the first
 * (asked at the `temperature` setting, 0 by default) and from each other, not so hot that they stop being code.
 */
export const ALTERNATIVE_TEMPERATURES = [0.5, 0.8, 1.0, 1.2] as const;

/** One candidate answer of an invoked request. */
export interface Candidate {
  result: FittedCompletion;
  /** Mean log probability of its tokens, when the provider gave them. */
  meanLogprob: number | undefined;
  /** Where it was asked: 0 for the first request, then the alternatives in order. */
  order: number;
}

/**
 * The candidates as the editor gets them: blank ones and duplicates (the same text, trailing whitespace aside)
 * dropped, the most likely first — by mean token log probability when every candidate has one, else in the order
 * they were asked (the first request, at the set temperature, first).
 */
export function rankCandidates(candidates: readonly Candidate[]): Candidate[] {
  const usable = candidates.filter((c) => c.result.text.trim() !== "");
  const byLogprob = usable.every((c) => c.meanLogprob !== undefined);
  const sorted = [...usable].sort((a, b) =>
    byLogprob && a.meanLogprob !== b.meanLogprob ? b.meanLogprob! - a.meanLogprob! : a.order - b.order,
  );
  const seen = new Set<string>();
  return sorted.filter((c) => {
    const key = c.result.text.trimEnd();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The mean of some log probabilities; undefined for none. */
export function meanLogprob(values: readonly number[] | undefined): number | undefined {
  if (!values || values.length === 0) return undefined;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** What asking for the other candidates needs. */
export interface AlternativesRun {
  upstream: Upstream;
  /** The first request, which the others repeat at other temperatures. */
  request: FimRequest;
  /** What post-processing judges them against (the first request's). */
  ctx: PostProcessContext;
  /** How many to ask for. */
  count: number;
  /** Settles when nobody wants them any more: each is aborted then (and those not sent never are). */
  giveUp: Promise<unknown>;
  /** A slot under the concurrency cap (`Pacing.enter`). */
  enter(giveUp: Promise<unknown>): Promise<Release | undefined>;
  /** Called as each request starts; the returned function when it ends (usage counts them). */
  onUpstream?: () => (end: UpstreamEnd) => void;
}

/**
 * Ask for `count` other candidates at once, each at its own temperature, whole (not streamed), with the log
 * probabilities of their tokens. Resolves with those that came back usable, in the order asked. Never rejects: a
 * failed or aborted one is left out.
 */
export async function askAlternatives(run: AlternativesRun): Promise<Candidate[]> {
  const controller = new AbortController();
  void run.giveUp.then(() => controller.abort("cancelled"));
  const one = async (temperature: number, order: number): Promise<Candidate | undefined> => {
    const release = await run.enter(run.giveUp);
    if (!release) return undefined;
    const done = run.onUpstream?.();
    const t0 = performance.now();
    try {
      const request = { ...run.request, temperature, logprobs: 1 };
      const response = await run.upstream.complete(request, { signal: controller.signal });
      done?.({
        outcome: "completed",
        ms: performance.now() - t0,
        ...(response.usage ? { usage: response.usage } : {}),
      });
      const result = postProcess(response.text, run.ctx);
      return result ? { result, meanLogprob: meanLogprob(response.logprobs), order } : undefined;
    } catch (error) {
      const outcome = controller.signal.aborted ? "cancelled" : "failed";
      done?.({ outcome, ms: performance.now() - t0, ...(outcome === "failed" ? { error } : {}) });
      return undefined;
    } finally {
      release();
    }
  };
  const asked = ALTERNATIVE_TEMPERATURES.slice(0, run.count).map((t, i) => one(t, i + 1));
  return (await Promise.all(asked)).filter((c): c is Candidate => c !== undefined);
}
