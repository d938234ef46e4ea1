import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { AIMD_DEFAULTS } from "./batch/aimd.js";
import { checkLine, checkRecord, idKey, isBatchId, isFailure, parseLine } from "./batch/batch-record.js";
import { type BatchTarget, batchTarget } from "./batch/batch-target.js";
import {
  CHARS_PER_TOKEN,
  CHARS_PER_TOKEN_RANGE,
  CostEstimate,
  type ModelEstimate,
} from "./batch/cost-estimate.js";
import { readLines } from "./batch/jsonl-lines.js";
import { LineSet } from "./batch/line-set.js";
import {
  formatBar,
  formatCount,
  formatProgressLine,
  formatSummary,
  type RunFigures,
  summarize,
} from "./batch/progress.js";
import { ResultWriter } from "./batch/result-writer.js";
import { inputKey, type ResumeIndex, repairResults, scanResults } from "./batch/resume.js";
import { runBatch } from "./batch/run-batch.js";
import { type BatchShard, shardOf } from "./batch/shard.js";
import { parseShardFlag, SHARD_INDEX_ENV } from "./batch/shard-flag.js";
import { runMergeCommand } from "./batch-merge-command.js";
import {
  clientFromFlags,
  fail,
  failWith,
  PROVIDER_FLAGS,
  PROVIDER_HELP,
  UsageError,
} from "./cli-provider.js";
import { FimClient } from "./client.js";
import { priceOf } from "./prices.js";
import type { ProviderClient } from "./provider-client.js";
import { formatCost } from "./usage-format.js";
import { VERSION } from "./version.js";

/** `infill batch --help`. */
export const BATCH_HELP = `Usage: infill batch [IN.jsonl] [-o OUT.jsonl] [options]

Fills in the middle for every line of IN (default: stdin), one request a line, and writes one result a line
to OUT (default: stdout) as they finish. With -o a run goes on where an earlier one stopped (a crash, Ctrl-C,
--max-cost): the ids OUT already answers are skipped. Every line is checked before anything is sent.

Input line:  {"id": "t1", "prompt": "def fib(n):", "suffix": "\\n", "max_tokens": 64}
             an id (a string or an integer, each once) and the request: prompt, and optionally suffix,
             max_tokens, temperature, stop, model (default --model); DeepSeek also takes top_p, echo,
             logprobs, frequency_penalty, presence_penalty; the other providers take context.
Output line: {"id", "text", "finish_reason", "usage", "latency_ms"}, or {"id", "error": {"status", "type",
             "message"}} (with "line" for an input line that is not a request; "id" is null when it has none)

Options:
  -o, --output FILE        append results to FILE, skipping the ids it already answers (default: stdout)
  --retry-errors           send again the requests FILE has an error for (their error records are removed)
  --concurrency N          requests in flight at the start (default ${AIMD_DEFAULTS.initial}); more while no 429 comes back,
                           fewer after one
  --max-concurrency N      never more in flight (default ${AIMD_DEFAULTS.max})
  --tpm N                  stay under N tokens a minute, prompt and generated (default: no cap)
  --max-cost USD           stop before the cost at list prices could pass USD (answers counted at their
                           usage, requests in flight at their most: no cache hits, all of max_tokens)
  --dry-run                count prompt tokens and print the cost range; send nothing
  --json                   print the summary as JSON, on stdout with -o (else on stderr); with --dry-run,
                           the estimate, on stdout
  --no-progress            print no progress (default: a bar on a terminal, else a line every 5 s)
  --progress-interval S    seconds between progress lines off a terminal (default 5)
${PROVIDER_HELP}  -h, --help               show this help

Shards (one dataset over N processes or machines):
  --shard K/N              take only shard K of N (K from 0 to N-1): the records whose id hashes to K
                           (FNV-1a of the id's JSON text, modulo N; a line with no id by "line:LINE"),
                           the same on every machine. Give each shard its own -o: it resumes on its own.
                           The limits above are the shard's own: give each its share of the account's,
                           e.g. --max-concurrency LIMIT/N and --max-cost TOTAL/N
  --shard auto/N           K from ${SHARD_INDEX_ENV} (set in each pod of a Kubernetes Indexed Job)
  infill batch merge SHARD.jsonl… [-o ALL.jsonl] [--input IN.jsonl]
                           join the shards' outputs, checked (see infill batch merge --help)

Environment: DEEPSEEK_API_KEY, CODESTRAL_API_KEY, INFILL_BASE_URL, HTTPS_PROXY, NO_PROXY (see infill --help).

Exit status: 0 when every request has an answer; 1 when some have an error, or the run stopped at
--max-cost or after 10 requests in a row failed for a reason every request shares (the key, the balance,
the endpoint, the connection); 2 for usage errors (a bad --shard among them), duplicate ids (in the whole
input, with --shard too), or a model without a price under --max-cost (nothing is sent); 130 after
Ctrl-C (requests in flight are aborted, none is written twice; run the command again to go on).
`;

const OPTIONS = {
  output: { type: "string", short: "o" },
  "retry-errors": { type: "boolean" },
  concurrency: { type: "string" },
  "max-concurrency": { type: "string" },
  tpm: { type: "string" },
  "max-cost": { type: "string" },
  "dry-run": { type: "boolean" },
  json: { type: "boolean" },
  "no-progress": { type: "boolean" },
  "progress-interval": { type: "string" },
  shard: { type: "string" },
  ...PROVIDER_FLAGS,
  help: { type: "boolean", short: "h" },
} as const;

/** A model's name in estimates when the provider serves its own (llama.cpp). */
const SERVER_MODEL = "(the server's model)";

/** What the first pass over the input found. */
interface InputScan {
  /** Requests to send: valid records whose id OUT does not answer. */
  toSend: number;
  /** Records OUT already has a result for. */
  skipped: number;
  /** Lines that are not requests, with no result in OUT yet. */
  invalidLines: Set<number>;
  /** Ids on more than one line: the key, and its lines. */
  duplicates: Map<string, number[]>;
  /** With a shard, its lines (the others are not parsed again); undefined without one. */
  ours: LineSet | undefined;
  estimate: CostEstimate;
}

/**
 * Runs `infill batch` with its arguments (after `batch`), printing to stdout and stderr.
 * @returns the exit status.
 */
export async function runBatchCommand(argv: string[]): Promise<number> {
  if (argv[0] === "merge") return runMergeCommand(argv.slice(1));
  let values: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
  >["values"];
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return fail(2, `${(error as Error).message}; see infill batch --help`);
  }
  if (values.help) {
    process.stdout.write(BATCH_HELP);
    return 0;
  }
  // A batch makes garbage at a steady rate (every line parsed and checked twice, every request serialised), and on
  // that V8 grows its heap well past what is live: 160–175 MB peak RSS over 10,000 requests of 4 KB prompts, measured
  // with packages/core/bench/batch.mjs. Favouring size keeps it near 120 MB for about a quarter more CPU time in this
  // process, which spends its time waiting for the API. Set before the first line is read; it affects this process.
  setFlagsFromString("--optimize-for-size");
  let spool: string | undefined;
  try {
    if (positionals.length > 1) throw new UsageError(`one input file at most, got ${positionals.join(" ")}`);
    const settings = {
      concurrency: whole("--concurrency", values.concurrency),
      maxConcurrency: whole("--max-concurrency", values["max-concurrency"]),
      tokensPerMinute: whole("--tpm", values.tpm),
      maxCost: dollars(values["max-cost"]),
      progressMs: seconds(values["progress-interval"]),
      shard: shardFlag(values.shard),
    };
    if (settings.maxConcurrency !== undefined && settings.concurrency === undefined) {
      settings.concurrency = Math.min(AIMD_DEFAULTS.initial, settings.maxConcurrency);
    }
    if (values["retry-errors"] && values.output === undefined) {
      throw new UsageError("--retry-errors needs -o FILE, the results to retry the errors of");
    }
    const client = sender(clientFromFlags(values, `infill-cli/${VERSION}`));
    const target = batchTarget(client);
    const model = values.model;

    let input = positionals[0] ?? "-";
    if (input === "-") {
      // stdin is read twice, to check every line before anything is sent: it is copied to a file first, streamed.
      spool = await mkdtemp(join(tmpdir(), "infill-batch-"));
      input = join(spool, "stdin.jsonl");
      await pipeline(process.stdin, createWriteStream(input));
    }
    const output = values.output;
    let resume: ResumeIndex | undefined = output === undefined ? undefined : await scanResults(output);
    const retryErrors = values["retry-errors"] ?? false;
    const scan = await scanInput(input, target, model, resume, retryErrors, settings.shard);

    if (scan.duplicates.size > 0) return fail(2, duplicateMessage(scan.duplicates));
    const models = scan.estimate.models((name) => priceOf(name));
    if (settings.maxCost !== undefined) {
      const unpriced = models.find((entry) => entry.cost === undefined);
      if (unpriced) {
        throw new UsageError(
          `--max-cost: no list price is known for ${unpriced.model}, so the cost cannot be bounded`,
        );
      }
    }
    if (values["dry-run"]) {
      const report = { to_send: scan.toSend, skipped: scan.skipped, invalid: scan.invalidLines.size, models };
      process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : formatEstimate(report, output));
      return 0;
    }

    let sink: ConstructorParameters<typeof ResultWriter>[0];
    if (output === undefined) {
      sink = { stream: process.stdout };
    } else {
      if (resume !== undefined) resume = await repairResults(output, resume, retryErrors);
      sink = { file: await open(output, "a") };
    }
    const writer = new ResultWriter(sink);
    try {
      return await execute({
        input,
        client,
        target,
        model,
        resume,
        retryErrors,
        scan,
        settings,
        writer,
        values,
      });
    } finally {
      await writer.close().catch(() => {});
      if ("file" in sink) await sink.file.close();
    }
  } catch (error) {
    return failWith(error);
  } finally {
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
  }
}

/** The client that sends: FimClient for DeepSeek, so every field of DeepSeek's spec can be sent. */
function sender(client: ProviderClient): FimClient | ProviderClient {
  if (client.provider !== "deepseek") return client;
  return new FimClient({
    // The variable ProviderClient read (DEEPSEEK_API_KEY, or --api-key-env's); unset is no key, not FimClient's default.
    apiKey: process.env[client.apiKeyEnv ?? "DEEPSEEK_API_KEY"] ?? "",
    baseURL: client.baseURL,
    // The ProviderClient already refused plain http off this machine unless it was allowed.
    allowInsecureHttp: true,
    userAgent: `infill-cli/${VERSION}`,
  });
}

/**
 * The first pass: every line checked (nothing sent), ids counted for duplicates, prompt characters counted for the
 * estimate. OUT's answers are skipped; its errors too, unless they are to be sent again. With a shard, only its
 * records are checked and counted, but duplicates are looked for in every record: one run would refuse them.
 */
async function scanInput(
  path: string,
  target: BatchTarget,
  model: string | undefined,
  resume: ResumeIndex | undefined,
  retryErrors: boolean,
  shard: BatchShard | undefined,
): Promise<InputScan> {
  const scan: InputScan = {
    toSend: 0,
    skipped: 0,
    invalidLines: new Set(),
    duplicates: new Map(),
    ours: shard === undefined ? undefined : new LineSet(),
    estimate: new CostEstimate(),
  };
  const firstLine = new Map<string, number>();
  for await (const line of readLines(createReadStream(path))) {
    if (line.text.trim() === "") continue;
    const parsed = parseLine(line.text, line.number);
    const record = isFailure(parsed) ? undefined : parsed.record;
    const id = (record as { id?: unknown } | null | undefined)?.id;
    if (isBatchId(id) && !Array.isArray(record)) {
      const key = idKey(id);
      const first = firstLine.get(key);
      if (first === undefined) firstLine.set(key, line.number);
      else scan.duplicates.set(key, [...(scan.duplicates.get(key) ?? [first]), line.number]);
    }
    const key = inputKey(record, line.number);
    if (!isOurs(key, shard)) continue;
    scan.ours?.add(line.number);
    if (isDone(key, resume, retryErrors)) {
      scan.skipped += 1;
      continue;
    }
    const checked = isFailure(parsed) ? parsed : checkRecord(record, line.number, target, model);
    if (isFailure(checked)) {
      scan.invalidLines.add(line.number);
    } else {
      scan.toSend += 1;
      scan.estimate.add(checked.model ?? SERVER_MODEL, checked.chars, checked.maxTokens);
    }
  }
  return scan;
}

/** Whether a record of the input, known by `key` (see inputKey), is this run's: every one without a shard. */
function isOurs(key: string, shard: BatchShard | undefined): boolean {
  return shard === undefined || shardOf(key, shard.count) === shard.index;
}

/** Whether OUT already has the result of an input record (an error counts unless errors are sent again). */
function isDone(key: string, resume: ResumeIndex | undefined, retryErrors: boolean): boolean {
  if (resume === undefined) return false;
  return resume.answered.has(key) || (!retryErrors && resume.errors.has(key));
}

interface Execution {
  input: string;
  client: FimClient | ProviderClient;
  target: BatchTarget;
  model: string | undefined;
  resume: ResumeIndex | undefined;
  retryErrors: boolean;
  scan: InputScan;
  settings: {
    concurrency: number | undefined;
    maxConcurrency: number | undefined;
    tokensPerMinute: number | undefined;
    maxCost: number | undefined;
    progressMs: number | undefined;
    shard: BatchShard | undefined;
  };
  writer: ResultWriter;
  values: { output?: string | undefined; json?: boolean | undefined; "no-progress"?: boolean | undefined };
}

/** The second pass: the requests sent, the results written, progress shown, Ctrl-C handled. */
async function execute(job: Execution): Promise<number> {
  const { scan, writer, settings, values } = job;
  let invalidWritten = 0;
  async function* requests(): AsyncGenerator<unknown, void, undefined> {
    for await (const line of readLines(createReadStream(job.input))) {
      if (line.text.trim() === "") continue;
      if (scan.ours !== undefined && !scan.ours.has(line.number)) continue;
      if (scan.invalidLines.has(line.number)) {
        const failure = checkLine(line.text, line.number, job.target, job.model);
        if (isFailure(failure)) {
          await writer.write(failure);
          invalidWritten += 1;
        }
        continue;
      }
      // The first pass checked every line of this run's: one that is not a request and not among invalidLines has
      // its error record in OUT already.
      let record: unknown;
      try {
        record = JSON.parse(line.text);
      } catch {
        continue;
      }
      const key = inputKey(record, line.number);
      if (isDone(key, job.resume, job.retryErrors)) continue;
      yield record;
    }
  }

  const run = runBatch(requests(), {
    client: job.client,
    model: job.model,
    concurrency: settings.concurrency,
    maxConcurrency: settings.maxConcurrency,
    tokensPerMinute: settings.tokensPerMinute,
    maxCost: settings.maxCost,
  });
  const initialConcurrency = run.progress().concurrency;
  let highest = initialConcurrency;
  run.on("concurrency", (change) => {
    highest = Math.max(highest, change.to);
  });
  const figures = (): RunFigures => {
    const progress = run.progress();
    return {
      ...progress,
      total: scan.toSend,
      invalid: invalidWritten,
      failed: progress.failed + invalidWritten,
    };
  };

  let interrupted = false;
  let lastError: string | undefined;
  const onInterrupt = (): void => {
    interrupted = true;
    run.abort();
    // A second Ctrl-C does not wait for the results to be written.
    process.once("SIGINT", () => process.exit(130));
  };
  process.once("SIGINT", onInterrupt);
  const stopProgress = showProgress(figures, values["no-progress"] ? undefined : settings.progressMs);
  try {
    for await (const result of run) {
      if ("error" in result) lastError = result.error.message;
      await writer.write(result);
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    stopProgress();
  }
  await writer.close();

  const summary = summarize(figures(), {
    skipped: scan.skipped,
    initialConcurrency,
    highestConcurrency: highest,
    interrupted,
    lastError,
    shard: settings.shard,
  });
  if (values.json)
    (values.output === undefined ? process.stderr : process.stdout).write(`${JSON.stringify(summary)}\n`);
  else process.stderr.write(formatSummary(summary));
  if (interrupted) return 130;
  return summary.failed > 0 || summary.stopped !== null ? 1 : 0;
}

/**
 * Draws progress on stderr: a bar redrawn 10 times a second on a terminal, else a line every `intervalMs`; nothing
 * when `intervalMs` is undefined (--no-progress). @returns what stops it.
 */
function showProgress(figures: () => RunFigures, intervalMs: number | undefined): () => void {
  const stderr = process.stderr;
  if (intervalMs === undefined) return () => {};
  const tty = stderr.isTTY === true;
  const timer = setInterval(
    () => {
      if (tty) stderr.write(`\r\x1b[2K${formatBar(figures(), stderr.columns ?? 100)}`);
      else stderr.write(`${formatProgressLine(figures())}\n`);
    },
    tty ? 100 : intervalMs,
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    if (tty) stderr.write("\r\x1b[2K");
  };
}

/** The --dry-run report for people. */
function formatEstimate(
  report: { to_send: number; skipped: number; invalid: number; models: ModelEstimate[] },
  output: string | undefined,
): string {
  const notes = [];
  if (report.skipped > 0) notes.push(`${formatCount(report.skipped)} already answered in ${output}`);
  if (report.invalid > 0) notes.push(`${formatCount(report.invalid)} input lines that are not requests`);
  const lines = [
    `infill batch --dry-run: ${formatCount(report.to_send)} requests to send${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`,
  ];
  let low = 0;
  let high = 0;
  for (const entry of report.models) {
    const [fewest, most] = entry.promptTokensRange;
    lines.push(
      `${entry.model}: ${formatCount(entry.requests)} request${entry.requests === 1 ? "" : "s"}, about ${formatCount(entry.promptTokens)} prompt tokens ` +
        `(${formatCount(fewest)}–${formatCount(most)})`,
    );
    const unbounded =
      entry.unboundedRequests > 0
        ? `; ${formatCount(entry.unboundedRequests)} without max_tokens count 4,096`
        : "";
    if (entry.cost === undefined) {
      lines.push(`  no list price is known for ${entry.model}`);
      lines.push(`  output: at most ${formatCount(entry.maxOutputTokens)} tokens (max_tokens${unbounded})`);
      continue;
    }
    const { promptNoCacheHits, promptAllCacheHits, maxOutput } = entry.cost;
    lines.push(
      `  prompts: ${formatCost(promptNoCacheHits)} with no cache hits, ${formatCost(promptAllCacheHits)} with all ` +
        "from the cache",
    );
    lines.push(
      `  output: at most ${formatCount(entry.maxOutputTokens)} tokens (max_tokens${unbounded}), at most ${formatCost(maxOutput)}`,
    );
    low += promptAllCacheHits;
    high += promptNoCacheHits + maxOutput;
  }
  lines.push(`total at list prices: prompts from ${formatCost(low)}, everything at most ${formatCost(high)}`);
  lines.push(
    `Prompt tokens are characters ÷ ${CHARS_PER_TOKEN}, as infill-lsp estimates them; the range is the DeepSeek-V3 ` +
      `tokenizer's ${CHARS_PER_TOKEN_RANGE[1]}–${CHARS_PER_TOKEN_RANGE[0]} characters a token on code. The bill counts what the API reports.`,
  );
  return `${lines.join("\n")}\n`;
}

function duplicateMessage(duplicates: Map<string, number[]>): string {
  const shown = [...duplicates].slice(0, 5).map(([key, lines]) => `${key} on lines ${lines.join(", ")}`);
  const more = duplicates.size > 5 ? ` and ${duplicates.size - 5} more` : "";
  return `duplicate ids, nothing sent: ${shown.join("; ")}${more}`;
}

function shardFlag(text: string | undefined): BatchShard | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShardFlag(text, process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function whole(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`${flag} must be a positive integer, got ${text}`);
  return Number(text);
}

function dollars(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/^\$/, ""));
  if (text.trim() === "" || !(value >= 0)) {
    throw new UsageError(`--max-cost must be a non-negative number of US dollars, got ${text}`);
  }
  return value;
}

function seconds(text: string | undefined): number {
  if (text === undefined) return 5_000;
  const value = Number(text);
  if (text.trim() === "" || !(value > 0))
    throw new UsageError(`--progress-interval must be a positive number, got ${text}`);
  return value * 1000;
}
