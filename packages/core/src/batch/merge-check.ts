import type { Line } from "./jsonl-lines.js";
import { recordKey } from "./resume.js";

// What `infill batch merge` checks before it joins the shards' outputs: every line a whole result, every record
// once across the files, and with the input given, a result for every input record and none for another. Pure: the
// files' lines in, the problems out (a few of each kind shown, all counted).

/** Problems of one kind shown at most; the rest are counted. */
const SHOWN = 3;

/** One kind of problem: how many, and the first few said in full. */
interface Problems {
  count: number;
  shown: string[];
}

/** The results of N shards, checked as they are read: file by file, then the input. */
export class MergeCheck {
  readonly #files: readonly string[];
  /** Each key seen: its file's index × 2^32 + its line. */
  readonly #seen = new Map<string, number>();
  readonly #problems = new Map<string, Problems>();
  #results = 0;
  #inputRecords = 0;

  /** @param files the files' names, as the messages give them. */
  constructor(files: readonly string[]) {
    this.#files = files;
  }

  /** Results read so far. */
  get results(): number {
    return this.#results;
  }

  /** One line of file number `file` (an index into `files`). */
  addResult(file: number, line: Line): void {
    const name = this.#files[file];
    if (!line.terminated) {
      this.#note(
        "torn",
        `${name} ends with a line cut short (its shard was stopped while writing): run that shard again, which cuts it off and finishes`,
      );
      return;
    }
    if (line.text.trim() === "") return;
    const key = recordKey(parse(line.text));
    if (key === undefined) {
      this.#note("not a result", `${name} line ${line.number} is not a result of infill batch`);
      return;
    }
    const first = this.#seen.get(key);
    if (first !== undefined) {
      const where = `${this.#files[Math.floor(first / 2 ** 32)]} line ${first % 2 ** 32}`;
      this.#note(
        "twice",
        `${describe(key)} has a result in ${where} and in ${name} line ${line.number} (the same shard run twice, or a file given twice?)`,
      );
      return;
    }
    this.#seen.set(key, file * 2 ** 32 + line.number);
    this.#results += 1;
  }

  /** One record of the input, known by `key` (see inputKey): it must have a result. */
  addInput(key: string): void {
    this.#inputRecords += 1;
    if (this.#seen.delete(key)) return;
    this.#note("missing", `${describe(key)} has no result (its shard has not finished: run it again)`);
  }

  /**
   * The problems found, one line each (`inputRead`: whether the input was given, so that results it does not have
   * are one).
   */
  problems(inputRead: boolean): string[] {
    if (inputRead) {
      for (const key of this.#seen.keys()) {
        this.#note(
          "not in the input",
          `${describe(key)} has a result but is not in the input (another dataset's?)`,
        );
      }
    }
    const lines: string[] = [];
    for (const [kind, { count, shown }] of this.#problems) {
      lines.push(...shown);
      if (count > shown.length) lines.push(`… and ${count - shown.length} more: ${kind}`);
    }
    return lines;
  }

  /** Input records read. */
  get inputRecords(): number {
    return this.#inputRecords;
  }

  #note(kind: string, message: string): void {
    const problems = this.#problems.get(kind) ?? { count: 0, shown: [] };
    problems.count += 1;
    if (problems.shown.length < SHOWN) problems.shown.push(message);
    this.#problems.set(kind, problems);
  }
}

/** `id "t1"`, `id 42`, `input line 7`. */
function describe(key: string): string {
  return key.startsWith("line:") ? `input line ${key.slice(5)}` : `id ${key}`;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
