import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Admission } from "./admission.js";
import { AnswerWriter, sendJson } from "./answer-writer.js";
import { Completer } from "./completer.js";
import type { Dialect, Route } from "./dialects/dialect.js";
import { Exchange } from "./exchange.js";
import { DEFAULT_CUT_AFTER_CHUNKS, FaultQueue } from "./faults.js";
import { RequestLog, type SimRequest } from "./request-log.js";
import { type SimOptions, simSettings } from "./sim-options.js";

// The request handler of a simulator: routes a request to one of the dialect's endpoints (its FIM one, its
// next-edit ones), reads its body, and answers it in the order a provider would decide: the queued fault, the key,
// the body, the limits, then the completion.

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const noop = (): void => {};

/** Everything a simulator instance shares between requests, and its request handler. */
export class Simulator {
  readonly faults = new FaultQueue();
  readonly dialect: Dialect;
  readonly #log: RequestLog;
  /** The dialect's routes by their full path (`/beta/completions`, `/beta/chat/completions`…). */
  readonly #routes: ReadonlyMap<string, Route>;
  readonly #fim: boolean;
  readonly #apiKey: string | undefined;
  readonly #admission: Admission<Exchange>;
  readonly #completer: Completer;
  readonly #writer: AnswerWriter;

  /** @throws {RangeError} for a bad option; {TypeError} for a malformed fault. */
  constructor(options: SimOptions) {
    const settings = simSettings(options);
    this.dialect = settings.dialect;
    const dialect = this.dialect;
    this.#routes = new Map(
      [dialect, ...dialect.editRoutes].map((route) => [dialect.basePath + route.endpoint, route] as const),
    );
    this.#fim = settings.fim;
    this.#apiKey = settings.apiKey;
    this.#log = new RequestLog(settings.keepRequests);
    this.#admission = new Admission(
      settings.concurrencyLimit,
      settings.tokensPerMinute,
      settings.tokenWindowMs,
    );
    this.#completer = new Completer(this.dialect, settings.writeOn);
    this.#writer = new AnswerWriter(settings);
    this.faults.push(...(options.faults ?? []));
  }

  /** The records of the latest requests to the dialect's endpoints (see {@link RequestLog}). */
  get requests(): SimRequest[] {
    return this.#log.records;
  }

  /** The most requests being answered at once, so far. */
  get peak(): number {
    return this.#admission.peak;
  }

  /** Handles one HTTP request (every route: a wrong one gets the dialect's 404 or 405). */
  readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    res.on("error", noop);
    req.on("error", noop);
    const dialect = this.dialect;
    res.setHeader(dialect.requestIdHeader, randomUUID());
    const path = (req.url ?? "/").split("?", 1)[0] as string;
    const route = this.#routes.get(path);
    if (route === undefined) {
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
    const exchange = new Exchange(req, res, path);
    this.#log.add(exchange.record);
    // Over the limit, DeepSeek answers 429 at once; such a request does not count as one being answered.
    const overLimit = !this.#admission.enter(exchange);
    res.on("close", () => {
      this.#admission.leave(exchange);
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
        this.#writer.json(exchange, 413, dialect.errorBody(413, "Request body too large"));
        return;
      }
      if (overLimit) {
        this.#writer.json(exchange, 429, dialect.errorBody(429));
        return;
      }
      this.#answer(exchange, route, Buffer.concat(chunks, size).toString("utf8")).catch((error: unknown) => {
        // A bug in the simulator must not take the test run down with it; answer 500 when still possible.
        if (!exchange.res.headersSent && !exchange.done) {
          this.#writer.json(exchange, 500, dialect.errorBody(500, `Server Error: ${String(error)}`));
        } else {
          exchange.dropConnection();
        }
      });
    });
  };

  /** Answers a request to one of the dialect's endpoints whose body is `raw`. */
  async #answer(exchange: Exchange, route: Route, raw: string): Promise<void> {
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
      this.#writer.json(exchange, fault.status, dialect.errorBody(fault.status));
      return;
    }
    if (fault?.type === "garbage") {
      this.#writer.garbage(exchange);
      return;
    }
    if (fault?.type === "slow") exchange.latencyMs = fault.latencyMs;
    const cut = fault?.type === "cut" ? (fault.afterChunks ?? DEFAULT_CUT_AFTER_CHUNKS) : undefined;
    const streamError =
      fault?.type === "stream-error" ? (fault.afterChunks ?? DEFAULT_CUT_AFTER_CHUNKS) : undefined;

    const authorization = exchange.req.headers.authorization;
    const key = authorization === undefined ? undefined : /^Bearer (.+)$/.exec(authorization)?.[1];
    if (this.#apiKey !== undefined && key !== this.#apiKey) {
      this.#writer.json(exchange, 401, dialect.unauthorized(key), cut);
      return;
    }
    if (!parsed) {
      const { status, body } = dialect.invalidJson();
      this.#writer.json(exchange, status, body, cut);
      return;
    }
    const request = route.parse(exchange.record.body, this.#fim);
    if (!request.ok) {
      this.#writer.json(exchange, request.status, request.body, cut);
      return;
    }
    const answer = this.#completer.complete(request.request, key ?? "");
    const total = answer.promptTokens + answer.generation.tokens.length;
    const waitMs = this.#admission.admitTokens(answer.promptTokens, total, performance.now());
    if (waitMs > 0) {
      exchange.res.setHeader("retry-after", String(Math.ceil(waitMs / 1000)));
      this.#writer.json(exchange, 429, dialect.errorBody(429));
      return;
    }
    if (request.request.stream) {
      await this.#writer.stream(exchange, route, answer, cut, streamError);
    } else if (streamError !== undefined) {
      // Not streaming: the error body comes under a 200, as a proxy or a provider that failed late sends it.
      this.#writer.json(exchange, 200, dialect.errorBody(500));
    } else {
      await this.#writer.respond(exchange, route, answer, cut);
    }
  }

  /** Stops every exchange in flight (their timers with them). */
  stopAll(): void {
    for (const exchange of this.#admission.active()) {
      exchange.serverEnded = true;
      exchange.stop();
    }
  }
}
