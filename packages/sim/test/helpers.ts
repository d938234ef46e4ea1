import { type IncomingHttpHeaders, request } from "node:http";
import { afterEach } from "vitest";
import { type Sim, type SimOptions, startSim } from "../src/index.js";

export const MODEL = "deepseek-v4-flash";

const running: Sim[] = [];

/** Starts a simulator that is closed after the current test. */
export async function sim(options: SimOptions = {}): Promise<Sim> {
  const started = await startSim(options);
  running.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** POSTs a JSON body (or a raw string) to `/beta/completions` with fetch. */
export function post(
  target: Sim,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${target.url}/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });
}

/** POSTs and reads the JSON answer. */
export async function complete(
  target: Sim,
  body: unknown,
  headers?: Record<string, string>,
  // biome-ignore lint/suspicious/noExplicitAny: tests read success and error bodies alike, and check their shape themselves
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await post(target, body, headers === undefined ? {} : { headers });
  return { status: res.status, headers: res.headers, json: await res.json() };
}

/** A response read byte for byte over node:http, with whether the HTTP message completed. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** False when the connection ended before the message did. */
  complete: boolean;
  /** Milliseconds from sending to the status line. */
  headersAfterMs: number;
}

/** One request on a fresh connection; rejects when the connection fails before a response (e.g. reset). */
export function raw(
  url: string,
  body?: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: options.method ?? "POST",
        agent: false,
        headers: { "content-type": "application/json", ...options.headers },
      },
      (res) => {
        const headersAfterMs = performance.now() - started;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", () => {});
        res.on("close", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            complete: res.complete,
            headersAfterMs,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** `raw` for a completion request body. */
export function rawCompletion(
  target: Sim,
  body: unknown,
  headers?: Record<string, string>,
): Promise<RawResponse> {
  return raw(`${target.url}/completions`, JSON.stringify(body), headers === undefined ? {} : { headers });
}

/** The parts of an SSE body: data payloads (parsed, except `[DONE]`), comment lines, and what else. */
export interface Sse {
  // biome-ignore lint/suspicious/noExplicitAny: tests check the chunks' shape themselves
  events: any[];
  comments: string[];
  done: boolean;
  /** Anything after `data: [DONE]`. */
  afterDone: string;
}

export function parseSse(text: string): Sse {
  const result: Sse = { events: [], comments: [], done: false, afterDone: "" };
  const blocks = text.split("\n\n");
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block === "") continue;
    if (result.done) {
      result.afterDone += block;
      continue;
    }
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) result.comments.push(line);
      else if (line === "data: [DONE]") result.done = true;
      else if (line.startsWith("data: ")) result.events.push(JSON.parse(line.slice(6)));
      else throw new Error(`unexpected SSE line ${JSON.stringify(line)}`);
    }
  }
  return result;
}

/** Rejects when `promise` has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `condition()` holds, checking after every turn of the event loop; rejects after `ms`. */
export async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The add/sub editor example from the brief. */
export const ADD_SUB = "function add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {\n  ";
