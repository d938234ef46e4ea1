import { formatCost, formatPercent } from "../usage-format.js";
import type { BatchProgress } from "./batch-tally.js";

// What `infill batch` prints while it runs and when it ends. Pure: figures in, text out. The bar is one line of our
// own rather than a progress-bar package: it shows figures of our own (concurrency, cost, rate limits), redraws
// with `\r` and an erase, and costs a dozen lines, where cli-progress would bring its template language and
// string-width into a package that other tools import.

/** Where a run stands, as the command sees it: the batch's progress and what its input held. */
export interface RunFigures extends BatchProgress {
  /** Requests the run is to send (input records less those already answered), when known. */
  total: number | undefined;
  /** Input records that are not requests, written as error records. */
  invalid: number;
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** `1,234`. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** `1.2k`, `3.4M`: short, for the bar. */
export function formatShort(value: number): string {
  if (value < 1_000) return String(Math.round(value));
  if (value < 1_000_000) return `${(value / 1_000).toFixed(1)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** `0:07`, `12:34`, `1:02:03`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const seconds = total % 60;
  const minutes = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  const two = (n: number) => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(seconds)}` : `${minutes}:${two(seconds)}`;
}

/** Results a second since the start; 0 before the first. */
export function resultsPerSecond(figures: RunFigures): number {
  const done = figures.answered + figures.failed;
  return figures.elapsedMs > 0 ? (done * 1000) / figures.elapsedMs : 0;
}

/** Milliseconds left at the rate so far; undefined while it cannot be told. */
export function etaMs(figures: RunFigures): number | undefined {
  const rate = resultsPerSecond(figures);
  const done = figures.answered + figures.failed;
  if (figures.total === undefined || rate === 0) return undefined;
  return (Math.max(0, figures.total - done) * 1000) / rate;
}

/**
 * The terminal's progress line: `[######------]  52% 5,200/10,000 310/s ETA 0:15 │ 64 in flight │ 1.2M tok
 * $0.0123 │ 3 errors`, cut to `columns`.
 */
export function formatBar(figures: RunFigures, columns: number): string {
  const done = figures.answered + figures.failed;
  const width = 20;
  const share = figures.total ? Math.min(1, done / figures.total) : 0;
  const filled = Math.round(share * width);
  const eta = etaMs(figures);
  const parts = [
    `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%`,
    `${formatCount(done)}/${figures.total === undefined ? "?" : formatCount(figures.total)}`,
    `${resultsPerSecond(figures).toFixed(0)}/s`,
    `ETA ${eta === undefined ? "–" : formatDuration(eta)}`,
    `│ ${figures.inFlight}/${figures.concurrency} in flight`,
    `│ ${formatShort(figures.promptTokens + figures.completionTokens)} tok ${formatCost(figures.cost)}`,
    `│ ${formatCount(figures.failed)} errors`,
  ];
  const line = parts.join(" ");
  return line.length > columns ? `${line.slice(0, Math.max(0, columns - 1))}…` : line;
}

/** The line printed every few seconds off a terminal. */
export function formatProgressLine(figures: RunFigures): string {
  const done = figures.answered + figures.failed;
  const eta = etaMs(figures);
  const of = figures.total === undefined ? "" : `/${formatCount(figures.total)}`;
  return (
    `infill batch: ${formatCount(done)}${of} done, ${resultsPerSecond(figures).toFixed(1)}/s` +
    `${eta === undefined ? "" : `, ETA ${formatDuration(eta)}`}, ${figures.inFlight} in flight (limit ` +
    `${figures.concurrency}), ${formatCount(figures.promptTokens + figures.completionTokens)} tokens, ` +
    `${formatCost(figures.cost)}, ${formatCount(figures.failed)} errors, ${formatCount(figures.rateLimited)} rate-limited`
  );
}

/** The summary a run ends with, as `--json` prints it. */
export interface RunSummary {
  /** Input records that were already answered in OUT, and skipped. */
  skipped: number;
  /** Requests the run was to send. */
  total: number;
  sent: number;
  answered: number;
  /** Error results, input records that are not requests included. */
  failed: number;
  /** Input records that are not requests. */
  invalid: number;
  /** Requests not sent: the run stopped first. */
  not_sent: number;
  rate_limited: number;
  prompt_tokens: number;
  cache_hit_tokens: number;
  completion_tokens: number;
  /** US dollars at list prices (an estimate). */
  cost_usd: number;
  elapsed_ms: number;
  requests_per_second: number;
  concurrency: { initial: number; final: number; highest: number };
  /** Why the run ended early, or null. */
  stopped: "max-cost" | "failing" | "interrupted" | null;
  /** The message of the last error result, or null. */
  last_error: string | null;
  /** The process's peak resident memory (bytes). */
  peak_rss_bytes: number;
  /** The process's CPU time, user and system, since it started (ms). */
  cpu_ms: number;
  /** The shard this run took (`--shard`), or null for the whole input. */
  shard: { index: number; count: number } | null;
}

/** The summary's figures from a run's last progress. */
export function summarize(
  figures: RunFigures,
  extra: {
    skipped: number;
    initialConcurrency: number;
    highestConcurrency: number;
    interrupted: boolean;
    lastError?: string | undefined;
    shard?: { index: number; count: number } | undefined;
  },
): RunSummary {
  const done = figures.answered + figures.failed;
  const total = figures.total ?? done;
  return {
    skipped: extra.skipped,
    total,
    sent: figures.sent,
    answered: figures.answered,
    failed: figures.failed,
    invalid: figures.invalid,
    not_sent: Math.max(0, total - done),
    rate_limited: figures.rateLimited,
    prompt_tokens: figures.promptTokens,
    cache_hit_tokens: figures.cacheHitTokens,
    completion_tokens: figures.completionTokens,
    cost_usd: figures.cost,
    elapsed_ms: Math.round(figures.elapsedMs),
    requests_per_second: Number(resultsPerSecond(figures).toFixed(2)),
    concurrency: {
      initial: extra.initialConcurrency,
      final: figures.concurrency,
      highest: extra.highestConcurrency,
    },
    stopped: extra.interrupted
      ? "interrupted"
      : figures.stopped === "aborted"
        ? null
        : (figures.stopped ?? null),
    last_error: extra.lastError ?? null,
    peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
    cpu_ms: Math.round(cpuMs()),
    shard: extra.shard === undefined ? null : { index: extra.shard.index, count: extra.shard.count },
  };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The summary for people: a few lines. */
export function formatSummary(summary: RunSummary): string {
  const lines = [
    `infill batch${summary.shard === null ? "" : ` (shard ${summary.shard.index}/${summary.shard.count})`}: ` +
      `${formatCount(summary.answered)} answered, ${formatCount(summary.failed)} errors` +
      `${summary.invalid > 0 ? ` (${formatCount(summary.invalid)} bad input lines)` : ""}` +
      `${summary.not_sent > 0 ? `, ${formatCount(summary.not_sent)} not sent` : ""}` +
      `${summary.skipped > 0 ? `, ${formatCount(summary.skipped)} already answered` : ""}` +
      ` in ${formatDuration(summary.elapsed_ms)} (${summary.requests_per_second.toFixed(1)}/s)`,
    `  tokens: ${formatCount(summary.prompt_tokens)} prompt (${formatPercent(
      summary.prompt_tokens > 0 ? summary.cache_hit_tokens / summary.prompt_tokens : null,
    )} from the cache), ${formatCount(summary.completion_tokens)} generated; cost ${formatCost(summary.cost_usd)} ` +
      "at list prices (an estimate)",
    `  concurrency: ${summary.concurrency.initial} at the start, ${summary.concurrency.highest} at most, ` +
      `${summary.concurrency.final} at the end; ${formatCount(summary.rate_limited)} rate-limited answers sent again`,
  ];
  if (summary.stopped === "max-cost") lines.push("  stopped: the next request could have passed --max-cost");
  if (summary.stopped === "failing") {
    lines.push(`  stopped: requests in a row failed alike, the last with: ${summary.last_error}`);
  }
  if (summary.stopped === "interrupted")
    lines.push("  stopped: interrupted; run the same command again to go on");
  return `${lines.join("\n")}\n`;
}
