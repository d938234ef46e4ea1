import { addTotals, emptyTotals, type UsageTotals } from "@infill/core/usage";
import { beforeEach, describe, expect, it } from "vitest";
import type { Position, TextDocumentContentChangeEvent } from "vscode-languageserver";
import type { Suggestion } from "../../src/completion/type-through.js";
import { Documents } from "../../src/documents/documents.js";
import { CHECKED_AT_ONCE, SHOWN_AFTER_MS, SuggestionOutcomes } from "../../src/stats/suggestion-outcomes.js";
import { FakeTimers } from "../support/fake-timers.js";

// `const beta = co` with the sim's kind of suggestion: the rest of the line above.
const URI = "file:///ws/sample.js";
const TEXT = 'const alpha = compute(41, "left");\nconst beta = comp\n\nconst gamma = 1;\n';
const ANCHOR = { line: 1, character: 17 };
const suggestion = (text = 'ute(41, "left");', anchor: Position = ANCHOR): Suggestion => ({
  uri: URI,
  line: anchor.line,
  character: anchor.character,
  linePrefix: TEXT.split("\n")[anchor.line]!.slice(0, anchor.character),
  lineRest: "",
  text,
  replaceEnd: 0,
});

let documents: Documents;
let timers: FakeTimers;
let counted: UsageTotals;
let latencies: number[];
let reportsShown: boolean;
let outcomes: SuggestionOutcomes<string>;
let version: number;

beforeEach(() => {
  documents = new Documents();
  documents.didOpen({ textDocument: { uri: URI, languageId: "javascript", version: 1, text: TEXT } });
  timers = new FakeTimers();
  counted = emptyTotals();
  latencies = [];
  reportsShown = false;
  version = 1;
  outcomes = new SuggestionOutcomes<string>({
    count: (scope, delta, latencyMs) => {
      expect(scope).toBe("scope");
      addTotals(counted, delta);
      if (latencyMs !== undefined) latencies.push(latencyMs);
    },
    buffer: (uri) => documents.get(uri)?.buffer,
    horizons: () => [30, 120],
    clientReportsShown: () => reportsShown,
    timers,
  });
});

/** Apply the changes of one didChange notification, as the server does. */
function change(...changes: TextDocumentContentChangeEvent[]): void {
  const applied = documents.didChange({
    textDocument: { uri: URI, version: ++version },
    contentChanges: changes,
  });
  outcomes.changed(URI, applied!.changes);
}

const replace = (start: Position, end: Position, text: string): TextDocumentContentChangeEvent => ({
  range: { start, end },
  text,
});
const at = (line: number, character: number): Position => ({ line, character });

function answer(s: Suggestion, text = s.text, cursor: Position = ANCHOR) {
  return outcomes.answered(URI, s, text, cursor, 42, () => "scope");
}

describe("shown", () => {
  it(`counts a suggestion answered and not replaced for ${SHOWN_AFTER_MS} ms, once, with its latency`, () => {
    const s = suggestion();
    expect(answer(s)).toEqual({ id: "s1", before: 0 });
    timers.advance(SHOWN_AFTER_MS - 1);
    expect(counted.shown).toBe(0);
    timers.advance(1);
    expect(counted.shown).toBe(1);
    answer(s, s.text.slice(3));
    timers.advance(SHOWN_AFTER_MS);
    expect([counted.shown, latencies]).toEqual([1, [42]]);
  });

  it("does not count one replaced sooner by another, or by an answer with none", () => {
    answer(suggestion());
    timers.advance(300);
    answer(suggestion("ute(42);"));
    timers.advance(300);
    outcomes.noAnswer(URI, "empty");
    timers.advance(SHOWN_AFTER_MS);
    expect(counted.shown).toBe(0);
  });

  it("keeps counting one whose successor was superseded or cancelled (the client still shows it)", () => {
    answer(suggestion());
    outcomes.noAnswer(URI, "superseded");
    outcomes.noAnswer(URI, "cancelled");
    timers.advance(SHOWN_AFTER_MS);
    expect(counted.shown).toBe(1);
  });

  it("does not count one the typing left before it was seen", () => {
    answer(suggestion());
    change(replace(ANCHOR, ANCHOR, "x"));
    timers.advance(SHOWN_AFTER_MS);
    expect(counted.shown).toBe(0);
  });

  it("counts one taken at once, and one the client says it showed (and never by the timer then)", () => {
    const s = suggestion();
    const { id } = answer(s);
    expect(outcomes.acceptedById(id, 3)).toBe(true);
    expect(counted.shown).toBe(1);
    reportsShown = true;
    const other = answer(suggestion("ute(42);", at(3, 16)));
    timers.advance(SHOWN_AFTER_MS * 10);
    expect(counted.shown).toBe(1);
    expect(outcomes.reportedShown(other.id)).toBe(true);
    expect(outcomes.reportedShown("s404")).toBe(false);
    expect(counted.shown).toBe(2);
  });
});

describe("taken, inferred from the edit", () => {
  it("counts a popup item applied without its command: the word before the cursor re-inserted with the suggestion", () => {
    answer(suggestion());
    change(replace(at(1, 13), at(1, 17), 'compute(41, "left");'));
    expect(counted).toMatchObject({ shown: 1, accepted: 1, acceptedPartly: 0, acceptedChars: 16 });
    expect(counted.acceptedCharsSq).toBe(16 * 16);
  });

  it("counts Eglot's way: the proxy inserted, deleted with the word, and the item's edit applied, in one notification", () => {
    answer(suggestion());
    const proxy = 'compute(41, "left");';
    change(
      replace(at(1, 13), at(1, 17), proxy),
      replace(at(1, 13), at(1, 13 + proxy.length), ""),
      replace(at(1, 13), at(1, 13), proxy),
    );
    expect(counted).toMatchObject({ accepted: 1, acceptedChars: 16 });
  });

  it("counts ghost text inserted whole, and a line of a block taken in part", () => {
    answer(suggestion());
    change(replace(ANCHOR, ANCHOR, 'ute(41, "left");'));
    const block = suggestion("if (x) {\n  y();\n}", at(2, 0));
    answer(block, block.text, at(2, 0));
    change(replace(at(2, 0), at(2, 0), "if (x) {"));
    expect(counted).toMatchObject({ accepted: 1, acceptedPartly: 1, acceptedChars: 16 + 8 });
  });

  it("never counts twice what the item's command also reports, in either order", () => {
    const first = answer(suggestion());
    outcomes.acceptedById(first.id, 16);
    change(replace(ANCHOR, ANCHOR, 'ute(41, "left");'));
    const second = answer(suggestion("// done", at(2, 0)), "// done", at(2, 0));
    change(replace(at(2, 0), at(2, 0), "// done"));
    outcomes.acceptedById(second.id, 7);
    expect(counted).toMatchObject({ shown: 2, accepted: 2, acceptedChars: 16 + 7 });
  });

  it("counts nothing for other text at the place, or for the suggestion's text put elsewhere", () => {
    answer(suggestion());
    change(replace(at(3, 0), at(3, 0), 'ute(41, "left");'));
    change(replace(ANCHOR, ANCHOR, "x"));
    change(replace(at(1, 18), at(1, 18), 'ute(41, "left");'));
    expect(counted).toMatchObject({ accepted: 0, acceptedPartly: 0, acceptedChars: 0 });
  });

  it("follows the place when lines are added above it, and lets it go when the text before it changes", () => {
    answer(suggestion());
    change(replace(at(0, 0), at(0, 0), "// header\n"));
    change(replace(at(2, 17), at(2, 17), "ute("));
    expect(counted).toMatchObject({ acceptedPartly: 1, acceptedChars: 4 });
    change(replace(at(2, 6), at(2, 10), "delta"));
    change(replace(at(2, 22), at(2, 22), '41, "left");'));
    expect(counted.acceptedChars).toBe(4);
  });
});

describe("retention", () => {
  const take = () => {
    answer(suggestion());
    change(replace(ANCHOR, ANCHOR, 'ute(41, "left");'));
  };

  it("checks what was taken at each horizon after the first take: kept, then deleted", () => {
    take();
    timers.advance(30_000);
    expect(counted.retention).toEqual({
      "30": { checkedChars: 16, retainedChars: 16, retainedCharsSq: 256 },
    });
    // Typing after it stays out of it; then the line is deleted.
    change(replace(at(1, 33), at(1, 33), " // ok"));
    change(replace(at(1, 0), at(2, 0), ""));
    timers.advance(90_000);
    expect(counted.retention["120"]).toEqual({ checkedChars: 16, retainedChars: 0, retainedCharsSq: 0 });
    expect(timers.pending).toBe(0);
  });

  it("tolerates a small edit inside what was taken", () => {
    take();
    change(replace(at(1, 21), at(1, 23), "42"));
    timers.advance(30_000);
    expect(counted.retention["30"]!.retainedChars).toBe(15);
  });

  it("counts a closed document as its last state, and makes the remaining checks when it stops", () => {
    take();
    outcomes.closed(URI);
    documents.didClose(URI);
    timers.advance(30_000);
    expect(counted.retention["30"]!.retainedChars).toBe(16);
    outcomes.dispose();
    expect(counted.retention["120"]).toEqual({ checkedChars: 16, retainedChars: 16, retainedCharsSq: 256 });
    expect(timers.pending).toBe(0);
  });

  it("checks nothing of a suggestion never taken, and stops its timers when disposed", () => {
    answer(suggestion());
    outcomes.dispose();
    timers.advance(600_000);
    expect(counted).toEqual(emptyTotals());
    expect(timers.pending).toBe(0);
  });
});

describe("cost, with many suggestions taken", () => {
  const MANY_URI = "file:///ws/many.js";
  const LINE = "const value = comp";

  /** A document of `lines` lines, and a function that takes a suggestion at the end of line `i` (the edit's way). */
  function many(lines: number) {
    documents.didOpen({
      textDocument: { uri: MANY_URI, languageId: "javascript", version: 1, text: `${LINE}\n`.repeat(lines) },
    });
    let v = 1;
    const edit = (...changes: TextDocumentContentChangeEvent[]) =>
      outcomes.changed(
        MANY_URI,
        documents.didChange({ textDocument: { uri: MANY_URI, version: ++v }, contentChanges: changes })!
          .changes,
      );
    const take = (i: number) => {
      const anchor = at(i, LINE.length);
      const s: Suggestion = {
        ...anchor,
        uri: MANY_URI,
        linePrefix: LINE,
        lineRest: "",
        text: "ute();",
        replaceEnd: 0,
      };
      outcomes.answered(MANY_URI, s, s.text, anchor, 1, () => "scope");
      edit(replace(anchor, anchor, "ute();"));
    };
    return { take, edit };
  }

  it("runs every retention check on one timer", () => {
    const { take } = many(100);
    for (let i = 0; i < 100; i++) take(i);
    expect(counted.accepted).toBe(100);
    expect(timers.pending).toBe(1);
    timers.advance(120_000);
    expect(counted.retention["120"]).toEqual({
      checkedChars: 600,
      retainedChars: 600,
      retainedCharsSq: 100 * 6 * 6,
    });
    expect(timers.pending).toBe(0);
  });

  it("visits only the places on the lines an edit touches, and follows the others", () => {
    const { take, edit } = many(300);
    for (let i = 0; i < 300; i += 3) take(i);
    const before = outcomes.placesVisited;
    // Typing on a line between places, then a line added near the top: no place is visited.
    edit(replace(at(151, 0), at(151, 0), "x"));
    edit(replace(at(1, 0), at(1, 0), "// head\n"));
    expect(outcomes.placesVisited - before).toBe(0);
    // An edit inside what was taken at (old) line 150 visits that place alone.
    edit(replace(at(151, 20), at(151, 21), "T"));
    expect(outcomes.placesVisited - before).toBe(1);
    timers.advance(30_000);
    // 99 places intact, one with 5 of its 6 characters (a letter changed).
    expect(counted.retention["30"]).toMatchObject({ checkedChars: 600, retainedChars: 99 * 6 + 5 });
  });

  it("drops state after the last check, and follows nothing then", () => {
    const { take } = many(10);
    for (let i = 0; i < 10; i++) take(i);
    expect(outcomes.retentionQueue()).toEqual({ pending: 10, followed: 10, unchecked: 0, uncheckedChars: 0 });
    timers.advance(30_000);
    expect(outcomes.retentionQueue()).toMatchObject({ pending: 10, followed: 10 });
    timers.advance(90_000);
    expect(outcomes.retentionQueue()).toEqual({ pending: 0, followed: 0, unchecked: 0, uncheckedChars: 0 });
  });

  it(`counts the checks it drops beyond ${CHECKED_AT_ONCE} suggestions pending as unchecked`, () => {
    const { take } = many(CHECKED_AT_ONCE + 5);
    for (let i = 0; i < CHECKED_AT_ONCE + 5; i++) take(i);
    // The 5 oldest dropped, each with its 2 checks of 6 characters.
    expect(outcomes.retentionQueue()).toEqual({
      pending: CHECKED_AT_ONCE,
      followed: CHECKED_AT_ONCE,
      unchecked: 10,
      uncheckedChars: 60,
    });
    timers.advance(120_000);
    expect(counted.retention["30"]!.checkedChars).toBe(CHECKED_AT_ONCE * 6);
  });
});
