import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { delayedConnections } from "./connect-delay.js";
import {
  type Answer,
  DIALECTS,
  type Dialect,
  type DialectName,
  type SimCompletionRequest,
} from "./dialects/dialect.js";
import { DIALECT_BY_NAME } from "./dialects/registry.js";
import { DEFAULT_CUT_AFTER_CHUNKS, type Fault, FaultQueue } from "./faults.js";
import { generate } from "./generate.js";
import { PrefixCache, unitKeys } from "./prefix-cache.js";
import { SlotCache } from "./slot-cache.js";
import { TokenCache } from "./token-cache.js";
import { TokenWindow } from "./token-window.js";

/** How to start a simulator. */
export interface SimOptions {
  /**
   * Which provider's wire format to speak (see README): `deepseek` (default, `POST /beta/completions`),
   * `openai-compatible` (`POST /v1/completions`), `ollama` (`POST /api/generate`), `llamacpp` (`POST /infill`),
   * `codestral` (`POST /v1/fim/completions`).
   */
  dialect?: DialectName;
  /**
   * Whether the served model can fill in the middle. Default true. False: llama.cpp answers 501, Ollama "does not
   * support insert" for any suffix, an OpenAI-compatible host refuses `suffix` as vLLM does.
   */
  fim?: boolean;
  /** TCP port to listen on. Default 0: a free port chosen by the OS (read it from {@link Sim.url}). */
  port?: number;
  /** Interface to listen on. Default `"127.0.0.1"`. */
  host?: string;
  /**
   * The one API key accepted. When set, a request without `Authorization: Bearer <apiKey>` gets
   * 401 with DeepSeek's body (showing only the last four characters of the key it sent). When
   * unset (the default), any key or none is accepted.
   */
  apiKey?: string;
  /** Milliseconds before "inference starts": the time to the first byte of real content. Default 0. */
  latencyMs?: number;
  /**
   * Milliseconds per generated token: the gap between streamed token chunks, and for
   * non-streaming requests `tokens × tokenMs` more before the body. Default 0.
   */
  tokenMs?: number;
  /**
   * While waiting `latencyMs`, send the status line and headers at once, then keep the connection
   * busy as DeepSeek does under load: empty lines (`"\n"`) before a JSON body, `: keep-alive`
   * SSE comments before the first event of a stream. Default false.
   */
  keepAlive?: boolean;
  /** Milliseconds between keep-alive lines (the first is sent with the headers). Default 25. */
  keepAliveIntervalMs?: number;
  /** Faults for the next requests, in order; see {@link Fault}. Default none. */
  faults?: Fault[];
  /**
   * Milliseconds before each new connection is served, as DNS, TCP and TLS set-up cost on a real network: the
   * first request on a connection waits this long, a request on a kept-alive connection does not. Default 0.
   */
  connectDelayMs?: number;
  /**
   * The most requests answered at once, like DeepSeek's per-account concurrency limit: a request arriving while
   * this many are being answered gets 429 "Rate Limit Reached" at once. Default `Infinity` (no limit).
   */
  concurrencyLimit?: number;
  /**
   * The most tokens answered in a sliding minute (or `tokenWindowMs`), as providers that state a TPM limit count
   * it: each answered request's prompt and generated tokens count from when it is answered. A request whose prompt
   * tokens would take the window past the limit gets 429 "Rate Limit Reached" with `Retry-After`: the whole
   * seconds until enough tokens have left the window. (DeepSeek states no such limit and documents no Retry-After;
   * OpenAI-compatible hosts and Mistral do.) Default `Infinity` (no limit).
   */
  tokensPerMinute?: number;
  /** The window `tokensPerMinute` is counted over, in milliseconds. Default 60 000 (a minute). */
  tokenWindowMs?: number;
  /**
   * How many of the latest requests {@link Sim.requests} keeps; older ones are dropped from its
   * start. Default `Infinity` (every request). A long benchmark run should pass a small number
   * or 0: each record holds its request's body.
   */
  keepRequests?: number;
  /**
   * At the end of a file (nothing but whitespace after the cursor), write on past the end of the block, up to 16
   * lines, as a model does there (the hot streak's material). Default false: one block, as in the middle of a file.
   */
  writeOn?: boolean;
}

/** One request the simulator received on its completion endpoint, as it saw and answered it. */
export interface SimRequest {
  /** The parsed JSON body; `undefined` when it did not parse (or has not been read yet). */
  body: unknown;
  /** The request headers, as received. */
  headers: IncomingHttpHeaders;
  /** When the request arrived (its head was read), in ms since the epoch, with a fraction: to time a client. */
  receivedAt: number;
  /** The status answered; 0 for a `reset` fault, and until the status line is sent. */
  status: number;
  /** True when the client closed the connection before the response ended. */
  aborted: boolean;
  /**
   * Generated tokens written to the client so far: all of them for a whole answer; for a stream, its token events
   * (one per token) written before the client left. What a provider bills as output, about.
   */
  outputTokens: number;
  /** Settles (never rejects) when the response finished or the connection went away. */
  closed: Promise<void>;
}

/** A running simulator. */
export interface Sim {
  /**
   * The base URL a client of the dialect's provider uses: `http://127.0.0.1:PORT/beta` (DeepSeek),
   * `…/v1` (OpenAI-compatible, Codestral), `http://127.0.0.1:PORT` (Ollama, llama.cpp).
   */
  url: string;
  /** The dialect it speaks. */
  dialect: DialectName;
  /** Every request to the completion endpoint, in arrival order. */
  requests: SimRequest[];
  /** The most requests to the completion endpoint that were being answered at the same time, so far. */
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

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const JSON_TYPE = "application/json";
// What a proxy in front of an overloaded service answers: status 200 as promised, not JSON.
const GARBAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n";
const noop = (): void => {};

// setTimeout's limit; longer delays would fire at once (with a warning on stderr).
const MAX_DELAY_MS = 2_147_483_647;

function milliseconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value >= 0 && value <= MAX_DELAY_MS)) {
    throw new RangeError(`${name} must be a number of milliseconds in 0..${MAX_DELAY_MS}, got ${value}`);
  }
  return value;
}

/** One request/response pair: its record, its timers, and whether work on it must stop. */
class Exchange {
  readonly record: SimRequest;
  /** Set once nothing more may be written: the response ended, the client left, or the sim closes. */
  done = false;
  /** Set when the simulator itself dropped the connection (reset, cut, close), which is not an abort. */
  serverEnded = false;
  /** This request's latency when a `slow` fault set one; otherwise the server's. */
  latencyMs: number | undefined;
  readonly #cancels = new Set<() => void>();
  readonly #settle: () => void;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    let settle = noop;
    const closed = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#settle = settle;
    const receivedAt = performance.timeOrigin + performance.now();
    this.record = {
      body: undefined,
      headers: req.headers,
      receivedAt,
      status: 0,
      aborted: false,
      outputTokens: 0,
      closed,
    };
  }

  /** Resolves true after `ms`, or false as soon as the exchange stops. */
  wait(ms: number): Promise<boolean> {
    if (this.done) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    const delay = Math.min(ms, MAX_DELAY_MS);
    return new Promise((resolve) => {
      const cancel = (): void => {
        clearTimeout(timer);
        this.#cancels.delete(cancel);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#cancels.delete(cancel);
        resolve(!this.done);
      }, delay);
      this.#cancels.add(cancel);
    });
  }

  /** Calls `tick` every `ms` until the returned function is called or the exchange stops. */
  every(ms: number, tick: () => void): () => void {
    const timer = setInterval(tick, ms);
    const cancel = (): void => {
      clearInterval(timer);
      this.#cancels.delete(cancel);
    };
    this.#cancels.add(cancel);
    return cancel;
  }

  /** Stops all work on this exchange and its timers. */
  stop(): void {
    this.done = true;
    for (const cancel of [...this.#cancels]) cancel();
  }

  /** The response is over, one way or another. */
  closed(): void {
    if (!this.res.writableFinished && !this.serverEnded) this.record.aborted = true;
    this.stop();
    this.#settle();
  }

  writeHead(status: number, headers: Record<string, string | number>): void {
    this.record.status = status;
    this.res.writeHead(status, headers);
  }

  /** Ends the connection after what was written so far is flushed, without ending the HTTP message. */
  dropConnection(): void {
    this.serverEnded = true;
    this.done = true;
    const socket = this.res.socket;
    if (socket === null) return;
    socket.end(() => socket.destroy());
  }
}

/** Everything a simulator instance shares between requests. */
class Simulator {
  readonly requests: SimRequest[] = [];
  readonly faults = new FaultQueue();
  readonly dialect: Dialect;
  readonly #route: string;
  readonly #fim: boolean;
  readonly #writeOn: boolean;
  readonly #active = new Set<Exchange>();
  readonly #cache = new PrefixCache();
  readonly #slot = new SlotCache();
  readonly #tokens = new TokenCache();
  readonly #apiKey: string | undefined;
  readonly #latencyMs: number;
  readonly #tokenMs: number;
  readonly #keepAlive: boolean;
  readonly #keepAliveIntervalMs: number;
  readonly #keepRequests: number;
  readonly #concurrencyLimit: number;
  readonly #tokenWindow: TokenWindow | undefined;
  /** The most exchanges in {@link #active} at once. */
  peak = 0;

  constructor(options: SimOptions) {
    const name = options.dialect ?? "deepseek";
    if (!(DIALECTS as readonly string[]).includes(name)) {
      throw new RangeError(`dialect must be one of ${DIALECTS.join(", ")}, got ${String(name)}`);
    }
    this.dialect = DIALECT_BY_NAME[name];
    this.#route = this.dialect.basePath + this.dialect.endpoint;
    this.#fim = options.fim ?? true;
    this.#writeOn = options.writeOn ?? false;
    this.#apiKey = options.apiKey;
    this.#latencyMs = milliseconds("latencyMs", options.latencyMs, 0);
    this.#tokenMs = milliseconds("tokenMs", options.tokenMs, 0);
    this.#keepAlive = options.keepAlive ?? false;
    this.#keepAliveIntervalMs = milliseconds("keepAliveIntervalMs", options.keepAliveIntervalMs, 25);
    if (this.#keepAliveIntervalMs === 0) throw new RangeError("keepAliveIntervalMs must be > 0");
    this.#keepRequests = options.keepRequests ?? Number.POSITIVE_INFINITY;
    if (!(this.#keepRequests >= 0))
      throw new RangeError(`keepRequests must be ≥ 0, got ${options.keepRequests}`);
    this.#concurrencyLimit = options.concurrencyLimit ?? Number.POSITIVE_INFINITY;
    if (!(this.#concurrencyLimit >= 1))
      throw new RangeError(`concurrencyLimit must be ≥ 1, got ${options.concurrencyLimit}`);
    this.#tokenWindow =
      options.tokensPerMinute === undefined || options.tokensPerMinute === Number.POSITIVE_INFINITY
        ? undefined
        : new TokenWindow(options.tokensPerMinute, options.tokenWindowMs);
    this.faults.push(...(options.faults ?? []));
  }

  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    res.on("error", noop);
    req.on("error", noop);
    const dialect = this.dialect;
    res.setHeader(dialect.requestIdHeader, randomUUID());
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== this.#route) {
      req.resume();
      sendJson(res, 404, dialect.errorBody(404, `Not Found: no route for ${req.method} ${path}`));
      return;
    }
    if (req.method !== "POST") {
      req.resume();
      res.setHeader("allow", "POST");
      sendJson(res, 405, dialect.errorBody(405, `Method Not Allowed: ${path} accepts POST only`));
      return;
    }
    const exchange = new Exchange(req, res);
    if (this.#keepRequests > 0) {
      if (this.requests.length >= this.#keepRequests) this.requests.shift();
      this.requests.push(exchange.record);
    }
    // Over the limit, DeepSeek answers 429 at once; such a request does not count as one being answered.
    const overLimit = this.#active.size >= this.#concurrencyLimit;
    if (!overLimit) {
      this.#active.add(exchange);
      this.peak = Math.max(this.peak, this.#active.size);
    }
    res.on("close", () => {
      this.#active.delete(exchange);
      exchange.closed();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      if (exchange.done) return;
      if (size > MAX_BODY_BYTES) {
        res.setHeader("connection", "close");
        this.#json(exchange, 413, dialect.errorBody(413, "Request body too large"));
        return;
      }
      if (overLimit) {
        this.#json(exchange, 429, dialect.errorBody(429));
        return;
      }
      this.#answer(exchange, Buffer.concat(chunks, size).toString("utf8")).catch((error: unknown) => {
        // A bug in the simulator must not take the test run down with it; answer 500 when still possible.
        if (!exchange.res.headersSent && !exchange.done) {
          this.#json(exchange, 500, dialect.errorBody(500, `Server Error: ${String(error)}`));
        } else {
          exchange.dropConnection();
        }
      });
    });
  };

  async #answer(exchange: Exchange, raw: string): Promise<void> {
    const dialect = this.dialect;
    let parsed = true;
    try {
      exchange.record.body = JSON.parse(raw);
    } catch {
      parsed = false;
    }
    const fault = this.faults.next();
    if (fault?.type === "reset") {
      exchange.serverEnded = true;
      exchange.stop();
      exchange.req.socket.resetAndDestroy();
      return;
    }
    if (fault?.type === "status") {
      if (fault.retryAfter !== undefined) exchange.res.setHeader("retry-after", fault.retryAfter);
      this.#json(exchange, fault.status, dialect.errorBody(fault.status));
      return;
    }
    if (fault?.type === "garbage") {
      exchange.writeHead(200, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(GARBAGE) });
      exchange.res.end(GARBAGE);
      return;
    }
    if (fault?.type === "slow") exchange.latencyMs = fault.latencyMs;
    const cut = fault?.type === "cut" ? (fault.afterChunks ?? DEFAULT_CUT_AFTER_CHUNKS) : undefined;
    const streamError =
      fault?.type === "stream-error" ? (fault.afterChunks ?? DEFAULT_CUT_AFTER_CHUNKS) : undefined;

    const authorization = exchange.req.headers.authorization;
    const key = authorization === undefined ? undefined : /^Bearer (.+)$/.exec(authorization)?.[1];
    if (this.#apiKey !== undefined && key !== this.#apiKey) {
      this.#json(exchange, 401, dialect.unauthorized(key), cut);
      return;
    }
    if (!parsed) {
      const { status, body } = dialect.invalidJson();
      this.#json(exchange, status, body, cut);
      return;
    }
    const request = dialect.parse(exchange.record.body, this.#fim);
    if (!request.ok) {
      this.#json(exchange, request.status, request.body, cut);
      return;
    }
    const answer = this.#complete(request.request, key ?? "");
    const window = this.#tokenWindow;
    if (window !== undefined) {
      const now = performance.now();
      const waitMs = window.admit(answer.promptTokens, now);
      if (waitMs > 0) {
        exchange.res.setHeader("retry-after", String(Math.ceil(waitMs / 1000)));
        this.#json(exchange, 429, dialect.errorBody(429));
        return;
      }
      window.record(answer.promptTokens + answer.generation.tokens.length, now);
    }
    if (request.request.stream) {
      await this.#stream(exchange, answer, cut, streamError);
    } else if (streamError !== undefined) {
      // Not streaming: the error body comes under a 200, as a proxy or a provider that failed late sends it.
      this.#json(exchange, 200, dialect.errorBody(500));
    } else {
      await this.#respond(exchange, answer, cut);
    }
  }

  #complete(request: SimCompletionRequest, namespace: string): Answer {
    const suffix = request.suffix;
    const promptTokens = this.#tokens.tokens(request.prompt);
    // The FIM template has a hole marker between prompt and suffix; a request without a suffix is a plain completion.
    const suffixTokens = suffix === "" ? undefined : this.#tokens.tokens(suffix);
    const promptTokenCount = promptTokens.length + (suffixTokens === undefined ? 0 : suffixTokens.length + 1);
    let hit: number | undefined;
    if (this.dialect.cache === "units") {
      hit = this.#cache.account(
        unitKeys(
          namespace,
          { text: request.prompt, tokens: promptTokens },
          suffixTokens === undefined ? undefined : { text: suffix, tokens: suffixTokens },
        ),
      );
    } else if (this.dialect.cache === "slot") {
      hit = this.#slot.reuse(promptTokens, suffixTokens ?? []);
    }
    const generation = generate({
      prompt: request.prompt,
      suffix,
      maxTokens: request.maxTokens,
      stop: request.stop,
      promptTokens,
      writeOn: this.#writeOn,
      temperature: request.temperature,
    });
    return {
      id: randomUUID(),
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      prompt: request.prompt,
      echo: request.echo,
      logprobs: request.logprobs,
      generation,
      promptTokens: promptTokenCount,
      cacheHitTokens: hit,
      includeUsage: request.includeUsage,
    };
  }

  /**
   * Waits `latencyMs`, sending the headers and keep-alive lines meanwhile when asked to.
   * @returns false when the exchange stopped meanwhile
   */
  async #latency(
    exchange: Exchange,
    status: number,
    headers: Readonly<Record<string, string>>,
    line: string | undefined,
  ): Promise<boolean> {
    const latencyMs = exchange.latencyMs ?? this.#latencyMs;
    if (latencyMs <= 0) return !exchange.done;
    if (!this.#keepAlive || line === undefined) return exchange.wait(latencyMs);
    exchange.writeHead(status, headers);
    exchange.res.write(line);
    const stop = exchange.every(this.#keepAliveIntervalMs, () => exchange.res.write(line));
    const started = await exchange.wait(latencyMs);
    stop();
    return started;
  }

  async #respond(exchange: Exchange, answer: Answer, cut: number | undefined): Promise<void> {
    const body = JSON.stringify(this.dialect.body(answer));
    const json = { "content-type": JSON_TYPE };
    if (!(await this.#latency(exchange, 200, json, this.dialect.keepAlive?.json))) return;
    if (!(await exchange.wait(this.#tokenMs * answer.generation.tokens.length))) return;
    if (!exchange.res.headersSent) {
      exchange.writeHead(200, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
    }
    exchange.record.outputTokens = answer.generation.tokens.length;
    if (cut === undefined) {
      exchange.res.end(body);
    } else {
      exchange.res.write(body.slice(0, Math.floor(body.length / 2)));
      exchange.dropConnection();
    }
  }

  async #stream(
    exchange: Exchange,
    answer: Answer,
    cut: number | undefined,
    streamError: number | undefined,
  ): Promise<void> {
    const dialect = this.dialect;
    const { events, trailing } = dialect.events(answer);
    const headers = dialect.streamHeaders;
    if (!(await this.#latency(exchange, 200, headers, dialect.keepAlive?.stream))) return;
    if (!exchange.res.headersSent) exchange.writeHead(200, headers);
    const stopAt = cut ?? streamError;
    const sent = stopAt === undefined ? events.length : Math.min(stopAt, events.length);
    // What ends the stream: the dialect's end, its in-stream error, or (cut) nothing at all.
    const end =
      cut !== undefined ? undefined : streamError !== undefined ? dialect.streamError() : dialect.streamEnd;
    // A cut before the first chunk still answers with the status line and headers.
    if (sent === 0) exchange.res.flushHeaders();
    const tokens = answer.generation.tokens.length;
    if (this.#tokenMs <= 0) {
      // One write for the whole stream: the chunks are the same, the syscalls far fewer.
      const text = events.slice(0, sent).join("");
      exchange.record.outputTokens = Math.min(tokens, sent);
      if (end !== undefined) {
        exchange.res.end(text + end);
      } else {
        if (text !== "") exchange.res.write(text);
        exchange.dropConnection();
      }
      return;
    }
    const firstTrailing = events.length - trailing;
    for (let i = 0; i < sent; i++) {
      if (i > 0 && i < firstTrailing && !(await exchange.wait(this.#tokenMs))) return;
      exchange.res.write(events[i]!);
      if (i < firstTrailing) exchange.record.outputTokens = Math.min(tokens, i + 1);
    }
    if (end !== undefined) exchange.res.end(end);
    else exchange.dropConnection();
  }

  /** Sends a JSON body, or half of it before dropping the connection when `cut` is set. */
  #json(exchange: Exchange, status: number, payload: unknown, cut?: number): void {
    if (exchange.done) return;
    const body = JSON.stringify(payload);
    exchange.writeHead(status, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
    if (cut === undefined) {
      exchange.res.end(body);
    } else {
      exchange.res.write(body.slice(0, Math.floor(body.length / 2)));
      exchange.dropConnection();
    }
  }

  /** Stops every exchange in flight (their timers with them). */
  stopAll(): void {
    for (const exchange of this.#active) {
      exchange.serverEnded = true;
      exchange.stop();
    }
  }
}

/** The base URL clients use for a server listening on `host`:`port` (`basePath` is the dialect's). */
export function baseUrl(host: string, port: number, basePath = "/beta"): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}${basePath}`;
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Starts a local server that behaves like DeepSeek's FIM Completion (Beta) endpoint,
 * `POST /beta/completions` (or, with `dialect`, like another provider's FIM endpoint), with
 * deterministic prompt-lookup completions.
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
