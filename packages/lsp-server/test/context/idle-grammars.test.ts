// Grammars let go when idle (idle-grammars.ts decides when, runtime.ts lets go), loaded again when asked.
import { afterEach, describe, expect, it, vi } from "vitest";
import { c, java } from "../../src/context/lang/index.js";
import { configureGrammarIdle, IdleTracker } from "../../src/context/syntax/idle-grammars.js";
import { loadedGrammars, loadGrammar, runtimeLoaded } from "../../src/context/syntax/runtime.js";
import { documentTree, documentTreeFrom, keptTrees, treeCopy } from "../../src/context/syntax/support.js";
import { TextBuffer } from "../../src/documents/text-buffer.js";
import { FakeTimers } from "../support/fake-timers.js";

describe("IdleTracker", () => {
  it.each([
    {
      name: "one key, let go idleMs after its use",
      uses: [["c", 0]],
      at: [59_999, 60_000],
      idle: [[], ["c"]],
    },
    {
      name: "a use puts it off",
      uses: [
        ["c", 0],
        ["c", 50_000],
      ],
      at: [60_000, 110_000],
      idle: [[], ["c"]],
    },
    {
      name: "each key on its own",
      uses: [
        ["c", 0],
        ["java", 30_000],
      ],
      at: [60_000, 90_000],
      idle: [["c"], ["java"]],
    },
    {
      name: "together when idle together",
      uses: [
        ["c", 0],
        ["java", 0],
      ],
      at: [60_000],
      idle: [["c", "java"]],
    },
  ] as const)("$name", ({ uses, at, idle }) => {
    const timers = new FakeTimers();
    const batches: string[][] = [];
    const tracker = new IdleTracker<string>((keys) => batches.push(keys), { idleMs: 60_000, clock: timers });
    const events = [
      ...uses.map(([key, time]) => ({ time, run: () => tracker.used(key) })),
      ...at.map((time) => ({ time, run: () => batches.push(["@"]) })),
    ].sort((a, b) => a.time - b.time);
    for (const event of events) {
      timers.advance(event.time - timers.now());
      event.run();
    }
    // Each `@` closes what went idle up to then.
    const seen: string[][] = [];
    let current: string[] = [];
    for (const batch of batches) {
      if (batch[0] === "@") {
        seen.push(current);
        current = [];
      } else current.push(...batch);
    }
    expect(seen).toEqual(idle);
    // One timer at a time, none once every key is gone.
    expect(timers.pending).toBe(tracker.active.length > 0 ? 1 : 0);
  });

  it("keeps every key with idleMs 0; a shorter idleMs lets go at once what is past it", () => {
    const timers = new FakeTimers();
    const batches: string[][] = [];
    const tracker = new IdleTracker<string>((keys) => batches.push(keys), { idleMs: 0, clock: timers });
    tracker.used("c");
    timers.advance(3_600_000);
    expect(batches).toEqual([]);
    expect(timers.pending).toBe(0);
    tracker.used("java");
    timers.advance(10_000);
    tracker.idleMs = 5_000;
    expect(batches).toEqual([["c", "java"]]);
    expect(tracker.active).toEqual([]);
  });
});

describe("grammars let go when idle", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("drops an idle grammar's trees, loads it again when asked, and lets the runtime go once none is left", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const released = vi.fn();
    configureGrammarIdle({ idleMs: 60_000, afterRelease: released });
    await Promise.all([c.ready?.(), java.ready?.()]);
    const cText = "int f(void) { return 0; }\n";
    const open = (support: typeof c, key: string, text: string) =>
      support.parseOpen!(key, text, new TextBuffer(text));
    open(c, "file:///a.c", cText);
    open(java, "file:///A.java", "class A {}\n");
    expect([keptTrees("c"), keptTrees("java")]).toEqual([1, 1]);
    // A tree of this runtime that its owner keeps: it stays readable whatever is let go.
    const kept = (await loadGrammar("c"))!.parser.parse("int x;")!;

    vi.advanceTimersByTime(30_000);
    expect(java.parse("class B {}\n").outline.declarations).toHaveLength(1);
    vi.advanceTimersByTime(30_000);
    expect(loadedGrammars()).toEqual(["java"]);
    expect([keptTrees("c"), keptTrees("java")]).toEqual([0, 1]);
    expect(runtimeLoaded()).toBe(true);

    // Asked again: absent at first (the load starts, nobody waits), then loaded into the same runtime.
    expect(documentTree("c", "file:///a.c", new TextBuffer(cText))).toBeUndefined();
    await c.ready?.();
    expect(documentTree("c", "file:///a.c", new TextBuffer(cText))?.rootNode.type).toBe("translation_unit");
    expect(keptTrees("c")).toBe(1);
    expect(released).not.toHaveBeenCalled();

    // Nothing used for a minute: every grammar goes, and the runtime with them.
    vi.advanceTimersByTime(60_000);
    expect(loadedGrammars()).toEqual([]);
    expect([keptTrees("c"), keptTrees("java")]).toEqual([0, 0]);
    expect(runtimeLoaded()).toBe(false);
    expect(released).toHaveBeenCalledTimes(1);
    expect(kept.rootNode.firstChild?.type).toBe("declaration");
    kept.delete();

    // The next document of such a language loads a new runtime; the old one's objects were never mixed in.
    await java.ready?.();
    expect(runtimeLoaded()).toBe(true);
    const outline = open(java, "file:///A.java", "class A { void m() {} }\n").outline;
    expect(outline.declarations.map((d) => d.name)).toEqual(["A"]);
    expect(keptTrees("java")).toBe(1);
    expect(c.parse(cText).outline.declarations).toEqual([]);
    await c.ready?.();
    expect(c.parse(cText).outline.declarations.map((d) => d.name)).toEqual(["f"]);
    // A copy of a kept tree taken before its runtime was let go is not handed to the next runtime's parser.
    open(c, "file:///a.c", cText);
    expect(keptTrees("c")).toBe(1);
    const copy = treeCopy("c", "file:///a.c")!;
    c.close!("file:///a.c");
    java.close!("file:///A.java");
    vi.advanceTimersByTime(60_000);
    expect(runtimeLoaded()).toBe(false);
    const parse = vi.spyOn((await loadGrammar("c"))!.parser, "parse");
    const fresh = documentTreeFrom("c", "file:///a.c", new TextBuffer(cText), copy, false);
    expect(fresh?.rootNode.firstChild?.type).toBe("function_definition");
    expect(parse).toHaveBeenCalledWith(expect.any(Function), null);
    fresh?.delete();
    c.close!("file:///a.c");
  });
});
