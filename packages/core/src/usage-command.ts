import { parseArgs } from "node:util";
import {
  formatUsageBreakdown,
  monthContextEffect,
  USAGE_DIMENSIONS,
  type UsageDimension,
  usageGroups,
} from "./usage-breakdown.js";
import { localDay, usageDirectory, usageFile } from "./usage-log.js";
import { formatUsageSummary, readUsageLog, summarizeUsage } from "./usage-report.js";

/** `infill usage --help`. */
export const USAGE_HELP = `Usage: infill usage [--by language|model|context|kind] [--month YYYY-MM] [--json]

Prints what infill's language servers counted on this machine: today, the month and each model, with requests,
tokens, the share of prompt tokens served from DeepSeek's cache, the estimated cost and the share of suggestions
taken. Read from $XDG_STATE_HOME/infill/usage/YYYY-MM.jsonl (default ~/.local/state/infill/usage); nothing leaves
the machine.

With --by, the month split by language, model, context or kind: the characters taken and those still there at
each retention check (30 s, 2, 5 and 10 min by default), per dollar and per 1000 generated tokens, and the
characters taken on each day as a chart. --by context also compares the requests sent with repository context to
those the context.holdout setting sent without it, with the sample sizes and 95 % intervals. --by kind splits
completions at the cursor from next edits (lines written before next edits existed count as completions).

Options:
  --by language|model|context|kind   split the month by this
  --month YYYY-MM                    the month to show (default: this month)
  --json                             print the figures as JSON
  -h, --help                         show this help
`;

/** What the command prints and its exit status. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `infill usage` with its arguments (after `usage`). Never throws: a bad argument is exit status 2, a file
 * that cannot be read 1.
 */
export async function runUsageCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  now: Date = new Date(),
): Promise<CommandResult> {
  let values: {
    by?: string | undefined;
    month?: string | undefined;
    json?: boolean | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        by: { type: "string" },
        month: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return failure(2, `${(error as Error).message}; see infill usage --help`);
  }
  if (values.help) return { code: 0, stdout: USAGE_HELP, stderr: "" };
  const today = localDay(now);
  const month = values.month ?? today.slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
    return failure(2, `--month must be a month as YYYY-MM (e.g. ${today.slice(0, 7)}), got ${month}`);
  }
  const by = values.by as UsageDimension | undefined;
  if (by !== undefined && !USAGE_DIMENSIONS.includes(by)) {
    return failure(2, `--by must be one of ${USAGE_DIMENSIONS.join(", ")}, got ${values.by}`);
  }
  const directory = usageDirectory(env);
  if (!directory) return failure(1, "no place for the usage log: neither XDG_STATE_HOME nor HOME is set");
  const file = usageFile(directory, month);
  let log: Awaited<ReturnType<typeof readUsageLog>>;
  try {
    log = await readUsageLog(file);
  } catch (error) {
    return failure(1, `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const summary = summarizeUsage(log.records, month, today);
  if (values.json) {
    const split = by
      ? {
          by,
          groups: usageGroups(summary, by),
          ...(by === "context" ? { contextEffect: monthContextEffect(summary) } : {}),
        }
      : {};
    return {
      code: 0,
      stdout: `${JSON.stringify({ file, skippedLines: log.skipped, ...summary, ...split }, null, 2)}\n`,
      stderr: "",
    };
  }
  const skipped =
    log.skipped > 0
      ? `${log.skipped} line${log.skipped === 1 ? "" : "s"} of ${file} could not be read.\n`
      : "";
  if (log.records.length === 0) {
    return { code: 0, stdout: `No usage recorded for ${month} (${file}).\n${skipped}`, stderr: "" };
  }
  const report = by ? formatUsageBreakdown(summary, by, today) : formatUsageSummary(summary);
  return {
    code: 0,
    stdout: `infill usage, ${month}${by ? `, by ${by}` : ""} (${file})\n\n${report}${skipped}`,
    stderr: "",
  };
}

function failure(code: number, message: string): CommandResult {
  return { code, stdout: "", stderr: `infill: ${message}\n` };
}
