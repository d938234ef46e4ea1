// A stand-in next-edit format for the engine's own tests: its prompt is the region, its answer the region rewritten,
// so that a test's model is a function of the region (the real formats are tested with the sim's edit model).

import type { EditTarget } from "../../src/next-edit/next-edit-engine.js";
import type { NextEditFormat } from "../../src/next-edit/prompt/excerpt.js";
import type { EditUpstream } from "../../src/upstream/upstream.js";

/** The prompt is the region (JSON), the answer the region rewritten; an answer starting with `BAD` is malformed. */
export const REGION_FORMAT: NextEditFormat = {
  name: "deepseek",
  prompt: (input) => ({
    shape: "raw",
    prompt: JSON.stringify(input.excerpt.region),
    stop: [],
    maxTokens: 256,
  }),
  rewrittenRegion: (answer) =>
    answer.startsWith("BAD") ? { ok: false, problem: "no-region" } : { ok: true, region: answer },
};

/** A model that carries a rename to every use in the region: `from` → `to` as whole words. */
export function renamingModel(from: string, to: string): (region: string) => string {
  return (region) => region.replace(new RegExp(`\\b${from}\\b`, "g"), to);
}

/** An upstream whose answers a test releases, and what it was asked. */
export class ScriptedUpstream implements EditUpstream {
  readonly requests: Array<{
    region: string;
    signal: AbortSignal;
    release: (text?: string) => void;
    fail: (error: unknown) => void;
  }> = [];
  /** Answer at once with the model's rewrite (otherwise each request waits for `release`). */
  auto = true;

  constructor(public model: (region: string) => string) {}

  complete(request: { prompt?: string }, options: { signal: AbortSignal }) {
    const region = JSON.parse(request.prompt ?? '""') as string;
    return new Promise<{
      text: string;
      finish_reason: string;
      usage: undefined;
      model: undefined;
      raw: null;
    }>((resolve, reject) => {
      const answer = (text?: string) =>
        resolve({
          text: text ?? this.model(region),
          finish_reason: "stop",
          usage: undefined,
          model: undefined,
          raw: null,
        });
      options.signal.addEventListener("abort", () => reject(new Error("aborted")));
      this.requests.push({ region, signal: options.signal, release: answer, fail: reject });
      if (this.auto) answer();
    });
  }
}

/** The target of a scripted upstream. */
export function scriptedTarget(upstream: EditUpstream): EditTarget {
  return { upstream, format: REGION_FORMAT };
}
