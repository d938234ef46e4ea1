// Stand-ins for the next-edit formats and answer rules (branch ne-formats) in the engine's own tests: a format whose
// prompt is the region and whose answer is the region rewritten, and a line-by-line diff.
import type { NextEditFormat, RegionEdit } from "../../src/next-edit/contracts.js";
import type { EditTarget } from "../../src/next-edit/next-edit-engine.js";
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

/** The changed part of each changed line (same line count only), nearest the cursor first. */
export function lineEdits(current: string, rewritten: string, cursorOffset: number): RegionEdit[] {
  const a = current.split("\n");
  const b = rewritten.split("\n");
  if (a.length !== b.length) return [{ startOffset: 0, endOffset: current.length, text: rewritten }];
  const edits: RegionEdit[] = [];
  let offset = 0;
  a.forEach((line, i) => {
    const next = b[i]!;
    if (line !== next) {
      let head = 0;
      while (head < line.length && line[head] === next[head]) head++;
      let tail = 0;
      while (
        tail < line.length - head &&
        tail < next.length - head &&
        line.at(-1 - tail) === next.at(-1 - tail)
      )
        tail++;
      edits.push({
        startOffset: offset + head,
        endOffset: offset + line.length - tail,
        text: next.slice(head, next.length - tail),
      });
    }
    offset += line.length + 1;
  });
  return edits.sort(
    (x, y) => Math.abs(x.startOffset - cursorOffset) - Math.abs(y.startOffset - cursorOffset),
  );
}

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
  return { upstream, format: REGION_FORMAT, regionEdits: lineEdits };
}
