import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { delayedConnections } from "./connect-delay.js";
import type { DialectName } from "./dialects/dialect.js";
import type { Fault } from "./faults.js";
import type { SimRequest } from "./request-log.js";
import { milliseconds, type SimOptions } from "./sim-options.js";
import { Simulator } from "./simulator.js";

// The listening edge of a simulator: startSim() opens the port (with the connection delay when asked), counts the
// connections, and hands back the Sim that a test reads and closes.

/** A running simulator. */
export interface Sim {
  /**
   * The base URL a client of the dialect's provider uses: `http://127.0.0.1:PORT/beta` (DeepSeek),
   * `…/v1` (OpenAI-compatible, Codestral), `http://127.0.0.1:PORT` (Ollama, llama.cpp).
   */
  url: string;
  /** The dialect it speaks. */
  dialect: DialectName;
  /** Every request to its endpoints (FIM and next edit; see `SimRequest.path`), in arrival order. */
  requests: SimRequest[];
  /** The most requests to its endpoints that were being answered at the same time, so far. */
  readonly peakConcurrency: number;
  /**
   * TCP connections accepted so far (with `connectDelayMs`, counted when accepted, before the delay): whether a
   * client opened its connection ahead of its first request, and how many it keeps.
   */
  readonly connectionsAccepted: number;
  /** Queues more faults, after those already queued. Throws a TypeError for a malformed fault. */
  inject(...faults: Fault[]): void;
  /** Stops listening, ends every open connection (idle keep-alive ones too) and all timers. */
  close(): Promise<void>;
}

/** The base URL clients use for a server listening on `host`:`port` (`basePath` is the dialect's). */
export function baseUrl(host: string, port: number, basePath = "/beta"): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}${basePath}`;
}

/**
 * Starts a local server that behaves like DeepSeek's FIM Completion (Beta) endpoint,
 * `POST /beta/completions` (or, with `dialect`, like another provider's FIM endpoint), with
 * deterministic prompt-lookup completions; and like its next-edit endpoints (DeepSeek's
 * `POST /beta/chat/completions` with Chat Prefix Completion, a raw completion, a chat), answered by the edit model.
 *
 * @example
 * const sim = await startSim({ apiKey: "sk-test" });
 * // point the client at sim.url ("http://127.0.0.1:PORT/beta")
 * await sim.close();
 * const ollama = await startSim({ dialect: "ollama" }); // ollama.url is "http://127.0.0.1:PORT"
 */
export async function startSim(options: SimOptions = {}): Promise<Sim> {
  const simulator = new Simulator(options);
  const server = createServer({ keepAlive: true }, simulator.onRequest);
  const connectDelayMs = milliseconds("connectDelayMs", options.connectDelayMs, 0);
  const delayed = connectDelayMs > 0 ? delayedConnections(server, connectDelayMs) : undefined;
  const listener = delayed ?? server;
  let connectionsAccepted = 0;
  listener.on("connection", () => connectionsAccepted++);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port ?? 0, host, () => {
      listener.off("error", reject);
      resolve();
    });
  });
  const { port } = listener.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: baseUrl(host, port, simulator.dialect.basePath),
    dialect: simulator.dialect.name,
    requests: simulator.requests,
    get peakConcurrency() {
      return simulator.peak;
    },
    get connectionsAccepted() {
      return connectionsAccepted;
    },
    inject: (...faults) => simulator.faults.push(...faults),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        simulator.stopAll();
        // With delayed connections the HTTP server never listened: the listener is what closes.
        listener.close(() => resolve());
        delayed?.destroyAll();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
