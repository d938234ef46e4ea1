import type { CompletionChunk, CompletionRequest, FimClientOptions } from "@infill/core";
import type { Upstream } from "./engine.js";

/** An upstream that may own resources to release. */
export interface ClosableUpstream extends Upstream {
  close(): Promise<void>;
}

// The HTTP client (undici, the response schemas) and the simulator are loaded on first use, not at start-up:
// `initialize` is answered before they are evaluated, which keeps a cold start fast. esbuild keeps dynamic
// imports inside the one bundled file and evaluates them lazily.
const loadCore = () => import("@infill/core");

/** Start loading the client now (e.g. right after `initialize`), so the first completion does not wait for it. */
export function preloadClient(): void {
  void loadCore();
}

/** DeepSeek (or any server that speaks `/beta/completions`) through `FimClient`. */
export function apiUpstream(options: FimClientOptions): ClosableUpstream {
  const client = loadCore().then(({ FimClient }) => new FimClient(options));
  return {
    async *stream(
      request: CompletionRequest,
      streamOptions: { signal: AbortSignal },
    ): AsyncIterable<CompletionChunk> {
      yield* (await client).stream(request, streamOptions);
    },
    async close() {},
  };
}

/** An in-process `@infill/sim` on a loopback port, talked to through the same client: no key, no network. */
export function simUpstream(timeoutMs: number): ClosableUpstream {
  let started: Promise<{ close(): Promise<void>; client: Upstream }> | undefined;
  const ready = () => {
    started ??= Promise.all([import("@infill/sim"), loadCore()]).then(
      async ([{ startSim }, { FimClient }]) => {
        const sim = await startSim({ keepRequests: 0 });
        return { close: () => sim.close(), client: new FimClient({ baseURL: sim.url, timeoutMs }) };
      },
    );
    return started;
  };
  return {
    async *stream(
      request: CompletionRequest,
      options: { signal: AbortSignal },
    ): AsyncIterable<CompletionChunk> {
      yield* (await ready()).client.stream(request, options);
    },
    async close() {
      if (started) await (await started).close();
    },
  };
}
