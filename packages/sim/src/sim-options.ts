import { DIALECTS, type Dialect, type DialectName } from "./dialects/dialect.js";
import { DIALECT_BY_NAME } from "./dialects/registry.js";
import type { Fault } from "./faults.js";

// The options of startSim() and the checked values the simulator runs on, defaults filled in. Pure: options in,
// settings out, a RangeError for a bad one.

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

/** setTimeout's limit (ms); longer delays would fire at once (with a warning on stderr). */
export const MAX_DELAY_MS = 2_147_483_647;

/**
 * A delay option checked: `fallback` when unset.
 * @throws {RangeError} unless it is a number of milliseconds in 0..{@link MAX_DELAY_MS}.
 */
export function milliseconds(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(value >= 0 && value <= MAX_DELAY_MS)) {
    throw new RangeError(`${name} must be a number of milliseconds in 0..${MAX_DELAY_MS}, got ${value}`);
  }
  return value;
}

/** The options a simulator answers by, checked, defaults filled in (see {@link SimOptions} for each). */
export interface SimSettings {
  dialect: Dialect;
  fim: boolean;
  writeOn: boolean;
  apiKey: string | undefined;
  /** Milliseconds. */
  latencyMs: number;
  /** Milliseconds. */
  tokenMs: number;
  keepAlive: boolean;
  /** Milliseconds, > 0. */
  keepAliveIntervalMs: number;
  /** ≥ 0; `Infinity` keeps every record. */
  keepRequests: number;
  /** ≥ 1; `Infinity` for no limit. */
  concurrencyLimit: number;
  /** Undefined for no limit (checked where the window is made). */
  tokensPerMinute: number | undefined;
  /** Milliseconds; undefined for the window's default. */
  tokenWindowMs: number | undefined;
}

/**
 * Checks the options a simulator answers by, in the order they are documented (the listening ones, `port`, `host`
 * and `connectDelayMs`, are the server's).
 * @throws {RangeError} for an unknown dialect or an out-of-range number.
 */
export function simSettings(options: SimOptions): SimSettings {
  const name = options.dialect ?? "deepseek";
  if (!(DIALECTS as readonly string[]).includes(name)) {
    throw new RangeError(`dialect must be one of ${DIALECTS.join(", ")}, got ${String(name)}`);
  }
  const latencyMs = milliseconds("latencyMs", options.latencyMs, 0);
  const tokenMs = milliseconds("tokenMs", options.tokenMs, 0);
  const keepAliveIntervalMs = milliseconds("keepAliveIntervalMs", options.keepAliveIntervalMs, 25);
  if (keepAliveIntervalMs === 0) throw new RangeError("keepAliveIntervalMs must be > 0");
  const keepRequests = options.keepRequests ?? Number.POSITIVE_INFINITY;
  if (!(keepRequests >= 0)) throw new RangeError(`keepRequests must be ≥ 0, got ${options.keepRequests}`);
  const concurrencyLimit = options.concurrencyLimit ?? Number.POSITIVE_INFINITY;
  if (!(concurrencyLimit >= 1)) {
    throw new RangeError(`concurrencyLimit must be ≥ 1, got ${options.concurrencyLimit}`);
  }
  return {
    dialect: DIALECT_BY_NAME[name],
    fim: options.fim ?? true,
    writeOn: options.writeOn ?? false,
    apiKey: options.apiKey,
    latencyMs,
    tokenMs,
    keepAlive: options.keepAlive ?? false,
    keepAliveIntervalMs,
    keepRequests,
    concurrencyLimit,
    tokensPerMinute:
      options.tokensPerMinute === Number.POSITIVE_INFINITY ? undefined : options.tokensPerMinute,
    tokenWindowMs: options.tokenWindowMs,
  };
}
