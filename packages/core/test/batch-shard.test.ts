import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../src/batch/jsonl-lines.js";
import { LineSet } from "../src/batch/line-set.js";
import { MergeCheck } from "../src/batch/merge-check.js";
import { inputKey } from "../src/batch/resume.js";
import { checkShard, fnv1a, shardOf } from "../src/batch/shard.js";
import { parseShardFlag } from "../src/batch/shard-flag.js";

/** FNV-1a over the bytes Buffer gives: the reference the hash of strings must agree with. */
function fnv1aBytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash >>> 0;
}

describe("fnv1a", () => {
  it.each<[string, number]>([
    // The published FNV-1a 32-bit test vectors.
    ["", 0x811c9dc5],
    ["a", 0xe40c292c],
    ["foobar", 0xbf9cf968],
    // Keys as a batch makes them: an id's JSON text, a line without one.
    ['"t1"', fnv1aBytes(Buffer.from('"t1"'))],
    ["line:7", fnv1aBytes(Buffer.from("line:7"))],
  ])("of %j is %i", (text, hash) => {
    expect(fnv1a(text)).toBe(hash);
  });

  it("hashes the UTF-8 bytes of any string, pairs and lone surrogates as TextEncoder writes them", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(fnv1a(text)).toBe(fnv1aBytes(new TextEncoder().encode(text)));
      }),
      { numRuns: 2000 },
    );
    expect(fnv1a("\ud800x")).toBe(fnv1aBytes(new TextEncoder().encode("\ud800x")));
    expect(fnv1a("é😀")).toBe(fnv1aBytes(Buffer.from("é😀", "utf8")));
  });
});

describe("shards", () => {
  it("split the keys into N parts of about equal size, each key in one", () => {
    const keys = Array.from({ length: 4000 }, (_, i) => inputKey({ id: `doc-${i}` }, i + 1));
    const sizes = [0, 0, 0, 0];
    for (const key of keys) {
      const shard = shardOf(key, 4);
      sizes[shard] = (sizes[shard] ?? 0) + 1;
    }
    for (const size of sizes) expect(size).toBeGreaterThan(850);
    expect(shardOf('"x"', 1)).toBe(0);
  });

  it.each<[string, unknown, number, string]>([
    ["a string id", { id: "t1" }, 3, '"t1"'],
    ["an integer id", { id: 42 }, 3, "42"],
    ["no id", { prompt: "x" }, 3, "line:3"],
    ["an id that cannot be used", { id: 1.5 }, 9, "line:9"],
    ["not an object", "text", 4, "line:4"],
    ["a line that is not JSON", undefined, 5, "line:5"],
  ])("key a record with %s as its result is known by", (_, record, line, key) => {
    expect(inputKey(record, line)).toBe(key);
  });

  it.each<[string, { index: number; count: number }, RegExp]>([
    ["count 0", { index: 0, count: 0 }, /shard\.count must be a positive integer, got 0/],
    ["index past the count", { index: 4, count: 4 }, /shard\.index must be an integer from 0 to 3 .* got 4/],
    ["a negative index", { index: -1, count: 4 }, /shard\.index/],
    ["a fractional index", { index: 0.5, count: 4 }, /shard\.index/],
  ])("checkShard refuses %s", (_, shard, message) => {
    expect(() => checkShard(shard)).toThrow(message);
  });
});

describe("--shard", () => {
  it.each<[string, Record<string, string>, { index: number; count: number }]>([
    ["0/1", {}, { index: 0, count: 1 }],
    ["3/8", {}, { index: 3, count: 8 }],
    ["auto/8", { JOB_COMPLETION_INDEX: "5" }, { index: 5, count: 8 }],
    [" 07/10 ", {}, { index: 7, count: 10 }],
  ])("%j is shard %o", (text, env, shard) => {
    expect(parseShardFlag(text, env)).toEqual(shard);
  });

  it.each<[string, Record<string, string>, string]>([
    ["8/8", {}, "--shard 8/8: K must be below N (shards are numbered 0 to 7)"],
    ["0/0", {}, "--shard 0/0: N (the count of shards) must be at least 1"],
    [
      "3",
      {},
      '--shard must be K/N (shard K of N, K from 0 to N-1) or auto/N (K from JOB_COMPLETION_INDEX, as in a Kubernetes Indexed Job), got "3" (the count of shards is missing: 3/N)',
    ],
    ["-1/4", {}, 'got "-1/4"'],
    ["1.5/4", {}, 'got "1.5/4"'],
    ["auto", { JOB_COMPLETION_INDEX: "1" }, "(the count of shards is missing: auto/N)"],
    [
      "auto/4",
      {},
      "--shard auto/4: JOB_COMPLETION_INDEX is not set (Kubernetes sets it in each pod of an Indexed Job); give K/4 instead",
    ],
    [
      "auto/4",
      { JOB_COMPLETION_INDEX: "x" },
      '--shard auto/4: JOB_COMPLETION_INDEX must be a whole number, got "x"',
    ],
    [
      "auto/4",
      { JOB_COMPLETION_INDEX: "4" },
      "--shard auto/4: JOB_COMPLETION_INDEX is 4, not below 4 (is the Job's completions 4?)",
    ],
  ])("refuses %j, naming the option", (text, env, message) => {
    expect(() => parseShardFlag(text, env)).toThrow(message);
  });
});

/** The lines of a file's text, as readLines gives them. */
function fileLines(text: string) {
  const splitter = new LineSplitter();
  const lines = splitter.push(Buffer.from(text));
  const last = splitter.end();
  return last === undefined ? lines : [...lines, last];
}

const answer = (id: unknown) =>
  `${JSON.stringify({ id, text: "x", finish_reason: "stop", usage: null, latency_ms: 1 })}\n`;
const error = (id: unknown, line?: number) =>
  `${JSON.stringify({ id, ...(line === undefined ? {} : { line }), error: { status: null, type: "invalid_request", message: "m" } })}\n`;

describe("MergeCheck", () => {
  function check(files: Record<string, string>, input?: unknown[]): string[] {
    const names = Object.keys(files);
    const merge = new MergeCheck(names);
    for (const [index, name] of names.entries()) {
      for (const line of fileLines(files[name] as string)) merge.addResult(index, line);
    }
    if (input !== undefined)
      for (const [i, record] of input.entries()) merge.addInput(inputKey(record, i + 1));
    return merge.problems(input !== undefined);
  }

  it("passes the outputs of every shard, answers and errors, each record once", () => {
    expect(
      check({ "a.jsonl": answer("t1") + error(null, 2), "b.jsonl": answer(3) + error("t4", 4) }, [
        { id: "t1" },
        "bad",
        { id: 3 },
        { id: "t4" },
      ]),
    ).toEqual([]);
  });

  it.each<[string, Record<string, string>, unknown[] | undefined, string[]]>([
    [
      "a torn last line",
      { "a.jsonl": answer("t1") + answer("t2").slice(0, 10) },
      undefined,
      [
        "a.jsonl ends with a line cut short (its shard was stopped while writing): run that shard again, which cuts it off and finishes",
      ],
    ],
    [
      "a record twice",
      { "a.jsonl": answer("t1"), "b.jsonl": answer(2) + answer("t1") },
      undefined,
      [
        'id "t1" has a result in a.jsonl line 1 and in b.jsonl line 2 (the same shard run twice, or a file given twice?)',
      ],
    ],
    [
      "a line that is no result",
      { "a.jsonl": '{"x":1}\n' },
      undefined,
      ["a.jsonl line 1 is not a result of infill batch"],
    ],
    [
      "a record without a result, and a result for no record",
      { "a.jsonl": answer("t1") + answer("t9") },
      [{ id: "t1" }, { id: "t2" }],
      [
        'id "t2" has no result (its shard has not finished: run it again)',
        'id "t9" has a result but is not in the input (another dataset\'s?)',
      ],
    ],
    [
      "many records without a result",
      { "a.jsonl": "" },
      [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }],
      [
        "id 1 has no result (its shard has not finished: run it again)",
        "id 2 has no result (its shard has not finished: run it again)",
        "id 3 has no result (its shard has not finished: run it again)",
        "… and 2 more: missing",
      ],
    ],
  ])("finds %s", (_, files, input, problems) => {
    expect(check(files, input)).toEqual(problems);
  });
});

describe("LineSet", () => {
  it("holds the lines added, across its growth, and no others", () => {
    const set = new LineSet();
    const lines = [1, 7, 8, 9, 8191, 8192, 100_000, 1_000_003];
    for (const line of lines) set.add(line);
    for (const line of lines) expect(set.has(line)).toBe(true);
    for (const line of [0, 2, 10, 8190, 8193, 99_999, 1_000_002, 5_000_000])
      expect(set.has(line)).toBe(false);
  });
});
