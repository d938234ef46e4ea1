import { createReadStream } from "node:fs";
import { parseArgs } from "node:util";
import { readLines } from "./batch/jsonl-lines.js";
import { MergeCheck } from "./batch/merge-check.js";
import { replaceFile } from "./batch/replace-file.js";
import { inputKey } from "./batch/resume.js";
import { fail, failWith, UsageError } from "./cli-provider.js";

/** `infill batch merge --help`. */
export const MERGE_HELP = `Usage: infill batch merge SHARD.jsonl… [-o ALL.jsonl] [--input IN.jsonl]

Joins the outputs of the shards of one batch (infill batch IN --shard K/N -o SHARD-K.jsonl) into one file
that holds what a single run over IN would: every record's result once, as the shards wrote it (answers and
errors alike), file after file. Everything is checked before anything is written: no file may end with a
line cut short (that shard was stopped: run it again), no record may have two results; with --input, every
record of IN must have a result and no result may be for a record IN does not have. It holds every id in
memory, as infill batch does.

Options:
  -o, --output FILE        write to FILE (written beside it, then renamed over it); default stdout
  --input FILE             the batch's input, to check that every record has a result
  -h, --help               show this help

Exit status: 0 when the outputs were joined; 1 when a check failed (nothing is written); 2 for usage errors.
`;

const OPTIONS = {
  output: { type: "string", short: "o" },
  input: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Runs `infill batch merge` with its arguments (after `merge`).
 * @returns the exit status.
 */
export async function runMergeCommand(argv: string[]): Promise<number> {
  let values: { output?: string | undefined; input?: string | undefined; help?: boolean | undefined };
  let files: string[];
  try {
    ({ values, positionals: files } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return fail(2, `${(error as Error).message}; see infill batch merge --help`);
  }
  if (values.help) {
    process.stdout.write(MERGE_HELP);
    return 0;
  }
  try {
    if (files.length === 0)
      throw new UsageError("give the shards' output files: infill batch merge SHARD.jsonl…");
    if (values.output !== undefined && files.includes(values.output)) {
      throw new UsageError(`-o ${values.output} is one of the files to merge; write the merge to a new file`);
    }
    const check = new MergeCheck(files);
    for (const [index, file] of files.entries()) {
      for await (const line of readLines(createReadStream(file))) check.addResult(index, line);
    }
    if (values.input !== undefined) {
      for await (const line of readLines(createReadStream(values.input))) {
        if (line.text.trim() === "") continue;
        check.addInput(inputKey(parseRecord(line.text), line.number));
      }
    }
    const problems = check.problems(values.input !== undefined);
    if (problems.length > 0) {
      process.stderr.write(
        `infill batch merge: nothing written:\n${problems.map((p) => `  ${p}\n`).join("")}`,
      );
      return 1;
    }
    await join(files, values.output);
    const of = values.input === undefined ? "" : ` (every record of ${values.input})`;
    process.stderr.write(`infill batch merge: ${check.results} results from ${files.length} files${of}\n`);
    return 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return fail(2, `cannot read ${(error as NodeJS.ErrnoException).path}: no such file`);
    }
    return failWith(error);
  }
}

/** An input line's record, or nothing when it is not JSON (its key is then its line). */
function parseRecord(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Copies the files' bytes, one after the other, to `output` (beside it, then renamed) or to stdout. */
async function join(files: readonly string[], output: string | undefined): Promise<void> {
  if (output === undefined) {
    for (const file of files) {
      for await (const chunk of createReadStream(file)) {
        if (!process.stdout.write(chunk))
          await new Promise((resolve) => process.stdout.once("drain", resolve));
      }
    }
    return;
  }
  await replaceFile(output, async (handle) => {
    for (const file of files) for await (const chunk of createReadStream(file)) await handle.write(chunk);
  });
}
