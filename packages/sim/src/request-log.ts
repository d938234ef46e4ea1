import type { IncomingHttpHeaders } from "node:http";

// What the simulator tells a test about the requests it received: one record each, and the log that keeps the
// latest of them (Sim.requests).

/** One request the simulator received on one of its endpoints, as it saw and answered it. */
export interface SimRequest {
  /**
   * The path it was sent to, without a query: `/beta/completions` (FIM), `/beta/chat/completions` (a next edit),
   * `/api/generate`, `/api/chat`, `/completion`…
   */
  path: string;
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

/** The records of the latest requests, oldest first: at most `keep` of them (`Infinity`: every one). */
export class RequestLog {
  /** The records, in arrival order; the same array for the log's life (it is {@link Sim.requests}). */
  readonly records: SimRequest[] = [];
  readonly #keep: number;

  /** @param keep how many records to keep, ≥ 0 (0 keeps none). */
  constructor(keep: number) {
    this.#keep = keep;
  }

  /** Logs a request, dropping the oldest record when the log is full. */
  add(record: SimRequest): void {
    if (this.#keep <= 0) return;
    if (this.records.length >= this.#keep) this.records.shift();
    this.records.push(record);
  }
}
