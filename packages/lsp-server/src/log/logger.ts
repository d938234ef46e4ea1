/** Log verbosities, from quietest to loudest (the `logLevel` setting takes these). */
export const LOG_LEVELS = ["off", "error", "warn", "info", "debug"] as const;

/** Log verbosity. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Levels from quietest to loudest, as `window/logMessage` ranks them. */
const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Leveled log lines; the server sends them as `window/logMessage`. */
export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** Where log lines go: one of the four `window/logMessage` levels. */
export type LogSink = (level: Exclude<LogLevel, "off">, message: string) => void;

/**
 * A logger whose verbosity is read on every call (it is a setting and changes at run time). `redact` removes
 * secrets from every line as a last line of defence: nothing logged may contain the API key.
 */
export function createLogger(sink: LogSink, level: () => LogLevel, redact: (text: string) => string): Logger {
  const at = (wanted: Exclude<LogLevel, "off">) => (message: string) => {
    if (RANK[level()] >= RANK[wanted]) sink(wanted, redact(message));
  };
  return { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") };
}

/** Replace every occurrence of each secret (ignoring empty ones) with `***`. */
export function redactor(secrets: () => Array<string | undefined>): (text: string) => string {
  return (text) => {
    let out = text;
    for (const secret of secrets()) {
      if (secret && secret.length >= 4) out = out.split(secret).join("***");
    }
    return out;
  };
}
