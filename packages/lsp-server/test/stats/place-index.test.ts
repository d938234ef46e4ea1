import { describe, expect, it } from "vitest";
import type { Position } from "vscode-languageserver";
// The benches' deterministic PRNG (mulberry32): the same edits in every run.
import { random } from "../../bench/jump-project.js";
import type { AppliedChange } from "../../src/documents/position-map.js";
import { PlaceIndex } from "../../src/stats/place-index.js";
import { mapPlace } from "../../src/stats/suggestion-place.js";

const at = (line: number, character: number): Position => ({ line, character });
const change = (start: Position, end: Position, text: string): AppliedChange => ({
  range: { start, end },
  text,
  replaced: "",
});

describe("PlaceIndex", () => {
  it.each<[string, AppliedChange, [Position, Position]]>([
    ["a character typed after it: unmoved", change(at(5, 20), at(5, 20), "x"), [at(5, 2), at(5, 10)]],
    [
      "a character typed before it on its line: shifted",
      change(at(5, 0), at(5, 0), "x"),
      [at(5, 3), at(5, 11)],
    ],
    ["an insertion at its start stays out", change(at(5, 2), at(5, 2), "ab"), [at(5, 4), at(5, 12)]],
    ["an insertion at its end stays out", change(at(5, 10), at(5, 10), "ab"), [at(5, 2), at(5, 10)]],
    ["an edit inside it is in it", change(at(5, 4), at(5, 6), "abcd"), [at(5, 2), at(5, 12)]],
    ["a line added above: one line down", change(at(1, 3), at(1, 3), "\n"), [at(6, 2), at(6, 10)]],
    ["two lines removed above: two up", change(at(1, 0), at(3, 0), ""), [at(3, 2), at(3, 10)]],
    ["deleted with its line: empty at the deletion", change(at(5, 0), at(6, 0), ""), [at(5, 0), at(5, 0)]],
    ["a line break before it on its line", change(at(5, 1), at(5, 1), "\n  "), [at(6, 3), at(6, 11)]],
  ])("%s", (_name, edit, expected) => {
    const index = new PlaceIndex<string>();
    index.add("p", at(5, 2), at(5, 10));
    index.apply(edit);
    expect(index.range("p")).toEqual({ start: expected[0], end: expected[1] });
  });

  it("follows many places through random edits exactly as mapping each one does", () => {
    const next = random(7);
    const int = (n: number) => Math.floor(next() * n);
    const index = new PlaceIndex<number>();
    const naive = new Map<number, [Position, Position]>();
    const place = (): [Position, Position] => {
      const start = at(int(60), int(20));
      const end =
        next() < 0.3 ? at(start.line + 1 + int(4), int(20)) : at(start.line, start.character + int(10));
      return [start, end];
    };
    let id = 0;
    for (let step = 0; step < 3000; step++) {
      const roll = next();
      if (roll < 0.05 || naive.size === 0) {
        const [start, end] = place();
        index.add(++id, start, end);
        naive.set(id, [start, end]);
      } else if (roll < 0.08) {
        const gone = [...naive.keys()][int(naive.size)]!;
        index.remove(gone);
        naive.delete(gone);
      } else {
        const start = at(int(70), int(25));
        const end = next() < 0.7 ? start : at(start.line + int(3), int(25));
        const text = ["x", "\n", "ab\ncd", "", "\n\n  "][int(5)]!;
        const edit = change(start, end, text);
        index.apply(edit);
        for (const [key, [from, to]] of naive) naive.set(key, mapPlace(from, to, edit, false));
      }
      if (step % 100 === 0 || step === 2999) {
        for (const [key, [start, end]] of naive) expect(index.range(key)).toEqual({ start, end });
      }
    }
    expect(index.size).toBe(naive.size);
  });

  it("maps one by one only the places on the edited lines, wherever the edit is", () => {
    const index = new PlaceIndex<number>();
    for (let i = 0; i < 1000; i++) index.add(i, at(i * 3, 0), at(i * 3, 12));
    // A character typed on the line of place 500, a line added at the top, a line between places removed.
    index.apply(change(at(1500, 20), at(1500, 20), "x"));
    expect(index.visited).toBe(1);
    index.apply(change(at(0, 0), at(0, 0), "\n"));
    expect(index.visited).toBe(2);
    index.apply(change(at(902, 0), at(903, 0), ""));
    expect(index.visited).toBe(2);
    expect(index.range(0)).toEqual({ start: at(1, 0), end: at(1, 12) });
    expect(index.range(300)).toEqual({ start: at(901, 0), end: at(901, 12) });
    expect(index.range(301)).toEqual({ start: at(903, 0), end: at(903, 12) });
    expect(index.range(999)).toEqual({ start: at(2997, 0), end: at(2997, 12) });
    // Added and removed places fold the shifts in.
    index.remove(500);
    index.add(1000, at(3, 0), at(3, 1));
    expect(index.range(999)).toEqual({ start: at(2997, 0), end: at(2997, 12) });
    expect(index.range(1000)).toEqual({ start: at(3, 0), end: at(3, 1) });
  });

  it("reaches a place spanning lines from an edit below its start", () => {
    const index = new PlaceIndex<string>();
    index.add("block", at(10, 0), at(14, 5));
    index.add("after", at(20, 0), at(20, 5));
    index.apply(change(at(13, 2), at(13, 2), "abc\n"));
    expect(index.range("block")).toEqual({ start: at(10, 0), end: at(15, 5) });
    expect(index.range("after")).toEqual({ start: at(21, 0), end: at(21, 5) });
    expect(index.visited).toBe(1);
  });
});
