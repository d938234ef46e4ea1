import {
  type ClientCapabilities,
  type InlineCompletionItem,
  LogMessageNotification,
  MessageType,
  type ProgressToken,
  ShowMessageNotification,
} from "vscode-languageserver";
import type { Answer } from "../completion/answer.js";
import { createLogger, type Logger, type LogLevel } from "../log/logger.js";
import type { RequestCost } from "../stats/request-cost.js";
import type { FailureNotice } from "../upstream/failure-notice.js";
import { PARTIAL_NOTIFICATION } from "./partial-results.js";

/** What the channel sends through: the part of vscode-languageserver's `Connection` it uses. */
export interface ClientConnection {
  sendNotification(method: string, params: unknown): Promise<void>;
  readonly window: {
    createWorkDoneProgress(): Promise<{
      begin(title: string, percentage?: number, message?: string): void;
      done(): void;
    }>;
  };
}

/** Options of a {@link ClientChannel}. */
export interface ClientChannelOptions {
  /** The `logLevel` setting, read at each line. */
  logLevel: () => LogLevel;
  /** Removes secrets from every message: nothing sent may hold the API key. */
  redact: (text: string) => string;
  /** What the client said it supports (progress). */
  capabilities: () => ClientCapabilities;
  /** Only start a `$/progress` report for upstream requests still running after this long, in ms. Default 150. */
  progressDelayMs?: number;
}

/** `window/logMessage` types by log level. */
const LOG_TYPES = {
  error: MessageType.Error,
  warn: MessageType.Warning,
  info: MessageType.Info,
  debug: MessageType.Log,
} as const;

/**
 * Everything the server says to the client on its own initiative: log lines, messages shown to the user, failure
 * notices, progress of upstream requests, metrics and partial results. Sending never throws and never waits: a
 * client that went away loses the message, not the server. Every text passes through `redact`.
 */
export class ClientChannel {
  readonly log: Logger;

  constructor(
    private readonly connection: ClientConnection,
    private readonly options: ClientChannelOptions,
  ) {
    this.log = createLogger(
      (level, message) => this.#send(LogMessageNotification.method, { type: LOG_TYPES[level], message }),
      options.logLevel,
      options.redact,
    );
  }

  /**
   * Show a message to the user: a notification, not `window/showMessageRequest` (nothing to answer, and no editor
   * blocks on a prompt).
   */
  show(type: MessageType, message: string): void {
    this.#send(ShowMessageNotification.method, { type, message: this.options.redact(message) });
  }

  /** Tell the user about a failure: logged as an error and shown with its severity. */
  tell(notice: FailureNotice): void {
    this.log.error(notice.message);
    this.show(notice.severity === "error" ? MessageType.Error : MessageType.Warning, notice.message);
  }

  /**
   * Report an upstream request as work in progress (`$/progress`) when the client supports it and the request is
   * still running after a short delay (no flicker for fast ones). Returns the function that ends the report.
   */
  progress(): () => void {
    if (!this.options.capabilities().window?.workDoneProgress) return () => {};
    let finished = false;
    let end: (() => void) | undefined;
    const timer = setTimeout(() => {
      this.connection.window
        .createWorkDoneProgress()
        .then((progress) => {
          progress.begin("infill", undefined, "completing…");
          // Finished while the client was creating the token: still a well-formed begin/end pair.
          if (finished) progress.done();
          else end = () => progress.done();
        })
        .catch(() => {});
    }, this.options.progressDelayMs ?? 150);
    timer.unref?.();
    return () => {
      finished = true;
      clearTimeout(timer);
      end?.();
    };
  }

  /**
   * `$/infill/metrics` for a suggestion answered (the `metrics` setting): latency, token usage, context, and what
   * the request cost the process, sent once that `cost` is known (shortly after the answer).
   */
  metrics(uri: string, answer: Extract<Answer, { kind: "suggestion" }>, cost: Promise<RequestCost>): void {
    const ms = (value: number) => Math.round(value * 100) / 100;
    const params = {
      uri,
      source: answer.source,
      latencyMs: ms(answer.latencyMs),
      upstreamMs: answer.upstreamMs === undefined ? null : ms(answer.upstreamMs),
      usage: answer.usage ?? null,
      context: answer.context ?? null,
      debounceMs: answer.debounceMs ?? null,
    };
    cost
      .then(({ gcMs, heapBytes }) => this.#send("$/infill/metrics", { ...params, gcMs: ms(gcMs), heapBytes }))
      .catch(() => {});
  }

  /** The partial result of an inline completion request (see partial-results.ts). */
  partial(token: ProgressToken, items: InlineCompletionItem[]): void {
    this.#send(PARTIAL_NOTIFICATION, { token, items });
  }

  #send(method: string, params: unknown): void {
    this.connection.sendNotification(method, params).catch(() => {});
  }
}
