import type { FimClientOptions } from "@infill/core";
import type { Upstream } from "./engine.js";

/** An upstream that may own resources to release. */
export interface ClosableUpstream extends Upstream {
  close(): Promise<void>;
}

// The HTTP client (undici, the response schemas) and the simulator are loaded on first use, not at start-up:
// `initialize` is answered before they are evaluated, which keeps a cold start fast. esbuild splits them into
// chunks that are only read when imported.
const loadCore = () => import("@infill/core");

/** Start loading the client now (e.g. right after `initialize`), so the first completion does not wait for it. */
export function preloadClient(): void {
  void loadCore();
}

/** An upstream whose client is created (and loaded) on first use. */
function lazy(create: () => Promise<Upstream>, close: (client: Upstream) => Promise<void>): ClosableUpstream {
  let client: Promise<Upstream> | undefined;
  const ready = () => {
    // A creation that failed (e.g. the client refused its options) is not kept: the next call tries again.
    client ??= create().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
  return {
    async *stream(request, options) {
      yield* (await ready()).stream(request, options);
    },
    async complete(request, options) {
      return (await ready()).complete(request, options);
    },
    async close() {
      const created = await client?.catch(() => undefined);
      if (created) await close(created);
    },
  };
}

/** DeepSeek (or any server that speaks `/beta/completions`) through `FimClient`. */
export function apiUpstream(options: FimClientOptions): ClosableUpstream {
  return lazy(
    async () => new (await loadCore()).FimClient(options),
    async () => {},
  );
}

/** An in-process `@infill/sim` on a loopback port, talked to through the same client: no key, no network. */
export function simUpstream(timeoutMs: number): ClosableUpstream {
  const sims = new WeakMap<Upstream, { close(): Promise<void> }>();
  return lazy(
    async () => {
      const [{ startSim }, { FimClient }] = await Promise.all([import("@infill/sim"), loadCore()]);
      const sim = await startSim({ keepRequests: 0 });
      // No key: the sim needs none, and the real one must not be sent to it.
      const client = new FimClient({ baseURL: sim.url, apiKey: "", timeoutMs });
      sims.set(client, sim);
      return client;
    },
    async (client) => sims.get(client)?.close(),
  );
}
