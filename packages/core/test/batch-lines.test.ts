// The pure parts of reading a batch's input and resuming from its output: lines with numbers and offsets, the
// resume index; and the file edge of resuming (a torn line cut off, errors dropped) on real files.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Line, LineSplitter, readLines } from "../src/batch/jsonl-lines.js";
import { ResumeScan, recordKey, repairResults, scanResults } from "../src/batch/resume.js";

function split(chunks: string[]): Line[] {
  const splitter = new LineSplitter();
  const lines = chunks.flatMap((chunk) => splitter.push(Buffer.from(chunk)));
  const last = splitter.end();
  return last === undefined ? lines : [...lines, last];
}

describe("LineSplitter", () => {
  it.each<[string, string[], Array<Partial<Line>>]>([
    ["one line", ['{"a":1}\n'], [{ number: 1, text: '{"a":1}', start: 0, end: 8, terminated: true }]],
    [
      "a line split across chunks",
      ['{"a"', ":1}\n{", '"b":2}\n'],
      [
        { number: 1, text: '{"a":1}', start: 0, end: 8 },
        { number: 2, text: '{"b":2}', start: 8, end: 16 },
      ],
    ],
    [
      "CRLF",
      ["a\r\nb\r\n"],
      [
        { text: "a", end: 3 },
        { text: "b", start: 3, end: 6 },
      ],
    ],
    [
      "an unterminated last line",
      ["a\nbc"],
      [{ text: "a" }, { number: 2, text: "bc", start: 2, end: 4, terminated: false }],
    ],
    [
      "blank lines keep their numbers",
      ["\n\nx\n"],
      [
        { number: 1, text: "" },
        { number: 2, text: "" },
        { number: 3, text: "x" },
      ],
    ],
    ["multi-byte characters across chunks", ["é", "\n"], [{ text: "é", end: 3 }]],
    ["nothing", [], []],
  ])("%s", (_, chunks, expected) => {
    expect(split(chunks)).toEqual(expected.map((line) => expect.objectContaining(line)));
  });

  it("reads a stream of strings and buffers", async () => {
    async function* source() {
      yield "a\nb";
      yield Buffer.from("c\n");
    }
    const lines = [];
    for await (const line of readLines(source())) lines.push(line.text);
    expect(lines).toEqual(["a", "bc"]);
  });
});

describe("resume index", () => {
  it.each<[string, unknown, string | undefined]>([
    ["a string id", { id: "a", text: "" }, '"a"'],
    ["an integer id", { id: 7, text: "" }, "7"],
    ["a bad line without an id", { id: null, line: 4, error: {} }, "line:4"],
    ["no id", { text: "" }, undefined],
    ["not an object", 3, undefined],
  ])("keys %s", (_, record, key) => {
    expect(recordKey(record)).toBe(key);
  });

  it("sorts answers from errors, notes a torn last line, ignores lines it cannot read", () => {
    const scan = new ResumeScan();
    for (const line of split([
      '{"id":"a","text":"x"}\n',
      '{"id":"b","error":{"status":402}}\n',
      "garbage\n",
      '{"id":null,"line":9,"error":{}}\n',
      '{"id":"c","error":{}}\n{"id":"c","text":"y"}\n',
      '{"id":"d","te',
    ])) {
      scan.add(line);
    }
    const index = scan.index();
    expect([...index.answered].sort()).toEqual(['"a"', '"c"']);
    expect([...index.errors].sort()).toEqual(['"b"', "line:9"]);
    expect(index.tornAt).toBe(140);
  });
});

describe("resuming files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "infill-resume-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("has no index for a file that does not exist", async () => {
    expect(await scanResults(join(dir, "none.jsonl"))).toBeUndefined();
  });

  it("cuts the torn line off, and drops error records when asked", async () => {
    const path = join(dir, "out.jsonl");
    const whole = '{"id":"a","text":"x"}\n{"id":"b","error":{}}\n{"id":"c","text":"z"}\n';
    await writeFile(path, `${whole}{"id":"d","tex`);
    const index = (await scanResults(path))!;
    expect(index.tornAt).toBe(whole.length);
    await repairResults(path, index, false);
    expect(await readFile(path, "utf8")).toBe(whole);
    const repaired = await repairResults(path, (await scanResults(path))!, true);
    expect(await readFile(path, "utf8")).toBe('{"id":"a","text":"x"}\n{"id":"c","text":"z"}\n');
    expect(repaired.errors.size).toBe(0);
  });
});
