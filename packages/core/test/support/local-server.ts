import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What a LocalServer saw of one request. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** Raw request body text. */
  body: string;
  /** Settles when the client's connection for this request closes. */
  closed: Promise<void>;
}

export interface LocalServer {
  /** Base URL, `http://127.0.0.1:PORT/beta`. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A tiny node:http server for response shapes `@infill/sim` does not produce (DeepSeek quirks, broken bodies).
 * `handler` answers each request; it gets the request's index and body text.
 */
export async function startLocalServer(
  handler: (res: ServerResponse, seen: SeenRequest, index: number) => unknown,
): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const part of req) body += part;
    const closed = new Promise<void>((resolve) => req.socket.once("close", () => resolve()));
    const seen: SeenRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
      closed,
    };
    requests.push(seen);
    await handler(res, seen, requests.length - 1);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/beta`,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** A complete, valid DeepSeek FIM response body, with the V4-era extras. */
export function completionBody(
  text = "return a + b",
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "cmpl-1",
    choices: [{ text, index: 0, logprobs: null, finish_reason: "stop" }],
    created: 1779503544,
    model: "deepseek-v4-flash",
    system_fingerprint: "fp_8b330d02d0_prod0820_fp8_kvcache_20260402",
    object: "text_completion",
    usage: {
      completion_tokens: 4,
      prompt_tokens: 10,
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: 10,
      total_tokens: 14,
      completion_tokens_details: { reasoning_tokens: 0 },
      prompt_tokens_details: { cached_tokens: 0 },
    },
    ...extra,
  };
}

/** Rejects if `promise` has not settled within `ms` — a deadline for waiting on events, not a sleep. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` and returns what it threw (failing when it does not throw). */
export async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

/** Polls `condition` until it holds, failing after `ms`: for state that has no event to wait on. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
