import type { ServerResponse } from "node:http";
import type { Answer, Route } from "./dialects/dialect.js";
import type { Exchange } from "./exchange.js";

// How a simulator writes a response at a provider's pace: the latency before the first byte (with keep-alive lines
// meanwhile when asked), a gap per generated token, and the `cut` and `stream-error` faults that end it early. The
// stream's shape (how many events, how it ends) is a pure plan; the writer carries it out on the exchange.

const JSON_TYPE = "application/json";
// What a proxy in front of an overloaded service answers: status 200 as promised, not JSON.
const GARBAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n";

/** How a stream goes: its first `sent` events, then the dialect's end, its in-stream error, or a dropped connection. */
export interface StreamPlan {
  /** Events written. */
  sent: number;
  /** `end`: the dialect's end of stream; `error`: its in-stream error, then the end of the response; `drop`: none. */
  end: "end" | "error" | "drop";
}

/**
 * The plan of a stream of `events` events under a `cut` or `stream-error` fault's chunk count (undefined: no
 * such fault). A cut wins over a stream error; neither sends more events than there are.
 */
export function streamPlan(
  events: number,
  cut: number | undefined,
  streamError: number | undefined,
): StreamPlan {
  const stopAt = cut ?? streamError;
  return {
    sent: stopAt === undefined ? events : Math.min(stopAt, events),
    end: cut !== undefined ? "drop" : streamError !== undefined ? "error" : "end",
  };
}

/** Writes a JSON body with its length, outside any exchange (the 404 and 405 of a request never recorded). */
export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** The pace of a simulator's responses (see SimOptions for each). */
export interface Pace {
  /** Milliseconds before the first byte of content, unless the exchange has its own (a `slow` fault). */
  latencyMs: number;
  /** Milliseconds per generated token. */
  tokenMs: number;
  /** Whether to send the headers and keep-alive lines while waiting the latency. */
  keepAlive: boolean;
  /** Milliseconds between keep-alive lines. */
  keepAliveIntervalMs: number;
}

/** Writes a dialect's responses on exchanges at a simulator's pace, each in the shape of the route it answers. */
export class AnswerWriter {
  readonly #pace: Pace;

  constructor(pace: Pace) {
    this.#pace = pace;
  }

  /** Sends a JSON body, or half of it before dropping the connection when `cut` is set. */
  json(exchange: Exchange, status: number, payload: unknown, cut?: number): void {
    if (exchange.done) return;
    const body = JSON.stringify(payload);
    exchange.writeHead(status, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
    endBody(exchange, body, cut);
  }

  /** The `garbage` fault: 200 with a JSON content type and an HTML body. */
  garbage(exchange: Exchange): void {
    exchange.writeHead(200, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(GARBAGE) });
    exchange.res.end(GARBAGE);
  }

  /** Sends a whole answer after the latency and its tokens' time; half of it, then the connection ends, on a cut. */
  async respond(exchange: Exchange, route: Route, answer: Answer, cut: number | undefined): Promise<void> {
    const body = JSON.stringify(route.body(answer));
    const json = { "content-type": JSON_TYPE };
    if (!(await this.#latency(exchange, 200, json, route.keepAlive?.json))) return;
    if (!(await exchange.wait(this.#pace.tokenMs * answer.generation.tokens.length))) return;
    if (!exchange.res.headersSent) {
      exchange.writeHead(200, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
    }
    exchange.record.outputTokens = answer.generation.tokens.length;
    endBody(exchange, body, cut);
  }

  /** Streams an answer's events after the latency, a token's time apart, as far as a fault lets it ({@link streamPlan}). */
  async stream(
    exchange: Exchange,
    route: Route,
    answer: Answer,
    cut: number | undefined,
    streamError: number | undefined,
  ): Promise<void> {
    const { events, trailing } = route.events(answer);
    const headers = route.streamHeaders;
    if (!(await this.#latency(exchange, 200, headers, route.keepAlive?.stream))) return;
    if (!exchange.res.headersSent) exchange.writeHead(200, headers);
    const plan = streamPlan(events.length, cut, streamError);
    const sent = plan.sent;
    // What ends the stream: the route's end, its in-stream error, or (cut) nothing at all.
    const end =
      plan.end === "drop" ? undefined : plan.end === "error" ? route.streamError() : route.streamEnd;
    // A cut before the first chunk still answers with the status line and headers.
    if (sent === 0) exchange.res.flushHeaders();
    const tokens = answer.generation.tokens.length;
    const tokenMs = this.#pace.tokenMs;
    if (tokenMs <= 0) {
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
      if (i > 0 && i < firstTrailing && !(await exchange.wait(tokenMs))) return;
      exchange.res.write(events[i]!);
      if (i < firstTrailing) exchange.record.outputTokens = Math.min(tokens, i + 1);
    }
    if (end !== undefined) exchange.res.end(end);
    else exchange.dropConnection();
  }

  /**
   * Waits the latency, sending the headers and keep-alive lines meanwhile when asked to.
   * @returns false when the exchange stopped meanwhile
   */
  async #latency(
    exchange: Exchange,
    status: number,
    headers: Readonly<Record<string, string>>,
    line: string | undefined,
  ): Promise<boolean> {
    const latencyMs = exchange.latencyMs ?? this.#pace.latencyMs;
    if (latencyMs <= 0) return !exchange.done;
    if (!this.#pace.keepAlive || line === undefined) return exchange.wait(latencyMs);
    exchange.writeHead(status, headers);
    exchange.res.write(line);
    const stop = exchange.every(this.#pace.keepAliveIntervalMs, () => exchange.res.write(line));
    const started = await exchange.wait(latencyMs);
    stop();
    return started;
  }
}

/** Ends the response with `body`, or (`cut` set) writes half of it and drops the connection. */
function endBody(exchange: Exchange, body: string, cut: number | undefined): void {
  if (cut === undefined) {
    exchange.res.end(body);
  } else {
    exchange.res.write(body.slice(0, Math.floor(body.length / 2)));
    exchange.dropConnection();
  }
}
