import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { DEFAULT_USAGE_KIND } from "./usage-dimensions.js";
import { horizonsOf, RETENTION_FIELDS, USAGE_FIELDS, type UsageTotals } from "./usage-totals.js";

// The usage log: one file per month, `YYYY-MM.jsonl`, one JSON object per line. Each line adds the figures of one
// day and one model as counted by one server since its previous line: a reader sums the lines, so servers never
// read, rewrite or lock the file, and several of them (one editor per project) append to it at once. A line is
// appended by one write(2) on a descriptor opened with O_APPEND: on a local filesystem the kernel moves to the end
// and writes under the file's lock, so lines from different processes never interleave. (Over NFS, O_APPEND is not
// atomic; a torn line is then skipped like one cut by a crash.) A line cut short by a crash or a full disk is not
// valid JSON and is skipped by the reader; the next append starts on a line of its own.
//
// Lines hold counts only: no code, no file names. A line also names the language (an LSP language id), whether
// the requests carried repository context, and their kind (completion or next edit); lines written before the
// language and context existed are read as `unknown`, and before the kind as `completion`. Fields are only added
// within a version, so an older reader still sums a newer line's figures.

/** The version of the log line format written by this package. */
export const USAGE_LOG_VERSION = 1;

/**
 * One line of the usage log: a day's figures for one model, language, context arm and kind, as one server counted
 * them since its last line.
 */
export interface UsageRecord extends UsageTotals {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  /** The provider that served the requests (`deepseek`, `sim`, …). */
  provider: string;
  /** The model id the requests named. */
  model: string;
  /** The documents' LSP language id (see `usageLanguage`); `unknown` in lines written before it was recorded. */
  language: string;
  /** Whether the requests carried repository context (a `ContextArm`); `unknown` in older lines. */
  context: string;
  /**
   * What the requests asked for (a `UsageKind`): `completion` or `next-edit`. Optional when writing: absent is
   * written as `completion`. The reader always sets it: `completion` for lines written before it was recorded,
   * `unknown` for a value that is not a kind.
   */
  kind?: string | undefined;
}

/**
 * The folder of the usage log: `$XDG_STATE_HOME/infill/usage`, else `$HOME/.local/state/infill/usage` (on Windows
 * `%LOCALAPPDATA%\infill\usage`); undefined when the environment names no such place (a relative
 * `XDG_STATE_HOME` is ignored, as the XDG specification says).
 */
export function usageDirectory(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const state = env.XDG_STATE_HOME;
  if (state && isAbsolute(state)) return join(state, "infill", "usage");
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "infill", "usage");
  if (env.HOME && isAbsolute(env.HOME)) return join(env.HOME, ".local", "state", "infill", "usage");
  return undefined;
}

/** The log file of a month (`YYYY-MM`) in `directory`. */
export function usageFile(directory: string, month: string): string {
  return join(directory, `${month}.jsonl`);
}

/** A date's local calendar day, `YYYY-MM-DD`. */
export function localDay(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * One log line (with its line break) for a record: the format version `v`, then the fields in a fixed order, the
 * cost rounded to 1e-10 $, and the retention checks by horizon (shortest first) when there were any.
 */
export function formatUsageRecord(record: UsageRecord): string {
  const line: Record<string, unknown> = {
    v: USAGE_LOG_VERSION,
    day: record.day,
    provider: record.provider,
    model: record.model,
    language: record.language,
    context: record.context,
    kind: record.kind ?? DEFAULT_USAGE_KIND,
  };
  for (const field of USAGE_FIELDS) {
    line[field] = field === "cost" ? Math.round(record.cost * 1e10) / 1e10 : record[field];
  }
  const horizons = horizonsOf(record.retention);
  if (horizons.length > 0) {
    line.retention = Object.fromEntries(
      horizons.map((seconds) => {
        const checks = record.retention[String(seconds)]!;
        return [String(seconds), Object.fromEntries(RETENTION_FIELDS.map((field) => [field, checks[field]]))];
      }),
    );
  }
  return `${JSON.stringify(line)}\n`;
}

/**
 * Append records to a log file (and create it and its folder, private to the user, when missing) in one write.
 * Synchronous: a few hundred bytes, and it must also work while the process exits. Throws when the file cannot be
 * written; a write that stopped short (a full disk) is not retried, so no line is ever counted twice.
 */
export function appendUsageRecords(file: string, records: readonly UsageRecord[]): void {
  if (records.length === 0) return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, "a+", 0o600);
  try {
    // A previous writer that died mid-line left no line break: start on a line of our own rather than glue the
    // first record to the torn one (which would lose both).
    const { size } = fstatSync(fd);
    let lead = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = "\n";
    }
    writeSync(fd, Buffer.from(lead + records.map(formatUsageRecord).join("")));
  } finally {
    closeSync(fd);
  }
}
