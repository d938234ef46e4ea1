import type { FimRequest, ProviderClientOptions } from "@infill/core";
import type { EditUpstream, Upstream } from "./upstream.js";

/** Where an upstream sends its requests, once its client exists: for `:checkhealth` and the probe. */
export interface UpstreamTarget {
  /** The normalised base URL, e.g. `http://127.0.0.1:11434`. */
  baseURL: string;
  /** The model requests use (the setting, else the provider's default); undefined for llama.cpp's own. */
  model: string | undefined;
}

/** An upstream that may own resources to release. */
export interface ClosableUpstream extends Upstream {
  /**
   * Creates the client if needed and says where it sends requests.
   * @throws what the client's constructor throws for a configuration it refuses (ValidationError).
   */
  target(): Promise<UpstreamTarget>;
  /** Create the client (and load its code) if needed, and open its connection if none is open. Never throws. */
  warm(): void;
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

/** A client as the server uses it: the engine's two calls, where they go, and opening its connection ahead. */
interface Client extends Upstream, UpstreamTarget {
  preconnect(): Promise<boolean>;
}

/** A client created (and its code loaded) on first use: `ready()` creates it, `created()` is it if it was. */
function onDemand<T>(create: () => Promise<T>): { ready(): Promise<T>; created(): Promise<T | undefined> } {
  let client: Promise<T> | undefined;
  return {
    ready() {
      // A creation that failed (e.g. the client refused its options) is not kept: the next call tries again.
      client ??= create().catch((error: unknown) => {
        client = undefined;
        throw error;
      });
      return client;
    },
    created: async () => client?.catch(() => undefined),
  };
}

/** An upstream whose client is created (and loaded) on first use. */
function lazy(create: () => Promise<Client>, close: (client: Client) => Promise<void>): ClosableUpstream {
  const { ready, created: made } = onDemand(create);
  return {
    async *stream(request: FimRequest, options) {
      yield* (await ready()).stream(request, options);
    },
    async complete(request: FimRequest, options) {
      return (await ready()).complete(request, options);
    },
    async target() {
      const { baseURL, model } = await ready();
      return { baseURL, model };
    },
    warm() {
      // A client that cannot be created is the next request's error to report.
      ready().then(
        (created) => created.preconnect(),
        () => {},
      );
    },
    async close() {
      const created = await made();
      if (created) await close(created);
    },
  };
}

/** A provider (DeepSeek, Ollama, llama.cpp, Codestral, an OpenAI-compatible host) through `ProviderClient`. */
export function providerUpstream(options: ProviderClientOptions): ClosableUpstream {
  return lazy(
    async () => new (await loadCore()).ProviderClient(options),
    async () => {},
  );
}

/** An in-process `@infill/sim` on a loopback port, talked to through the same client: no key, no network. */
export function simUpstream(timeoutMs: number): ClosableUpstream {
  const sims = new WeakMap<Client, { close(): Promise<void> }>();
  return lazy(
    async () => {
      const [{ startSim }, { ProviderClient }] = await Promise.all([import("@infill/sim"), loadCore()]);
      const sim = await startSim({ keepRequests: 0 });
      // No key: the sim needs none, and the real one must not be sent to it.
      const client = new ProviderClient({ provider: "deepseek", baseURL: sim.url, apiKey: "", timeoutMs });
      sims.set(client, sim);
      return client;
    },
    async (client) => sims.get(client)?.close(),
  );
}

/** A next-edit upstream that may own resources to release. */
export interface ClosableEditUpstream extends EditUpstream {
  close(): Promise<void>;
}

/** The next-edit upstream of a provider, through `EditClient`, created on first use. */
export function providerEditUpstream(options: ProviderClientOptions): ClosableEditUpstream {
  const client = onDemand(async () => new (await loadCore()).EditClient(options));
  return {
    complete: async (request, options) => (await client.ready()).complete(request, options),
    close: async () => {},
  };
}

/** Next edits from an in-process `@infill/sim` (its edit model), asked as DeepSeek: no key, no network. */
export function simEditUpstream(timeoutMs: number): ClosableEditUpstream {
  let sim: { close(): Promise<void> } | undefined;
  const client = onDemand(async () => {
    const [{ startSim }, { EditClient }] = await Promise.all([import("@infill/sim"), loadCore()]);
    const started = await startSim({ keepRequests: 0 });
    sim = started;
    // No key: the sim needs none, and the real one must not be sent to it.
    return new EditClient({ provider: "deepseek", baseURL: started.url, apiKey: "", timeoutMs });
  });
  return {
    complete: async (request, options) => (await client.ready()).complete(request, options),
    close: async () => {
      await client.created();
      await sim?.close();
    },
  };
}
