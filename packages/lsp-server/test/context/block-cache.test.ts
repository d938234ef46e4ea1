import { describe, expect, it } from "vitest";
import { EMPTY_BLOCK } from "../../src/context/block/block.js";
import { BlockCache, type Current, type DocState, settingsKey } from "../../src/context/block/block-cache.js";
import { Documents } from "../../src/documents/documents.js";
import type { ContextSettings } from "../../src/settings/settings.js";

const URI = "file:///w/a.ts";
const SETTINGS = { enabled: true, maxTokens: 1024, exclude: [], holdout: 0 } as unknown as ContextSettings;

function setup() {
  const documents = new Documents();
  const text = Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join("\n");
  documents.didOpen({ textDocument: { uri: URI, languageId: "typescript", version: 1, text } });
  const doc = documents.get(URI)!;
  const cache = new BlockCache();
  const at = (line: number): Current => ({
    doc,
    position: { line, character: 0 },
    budget: 1000,
    settings: SETTINGS,
    support: undefined,
    imports: () => undefined,
    types: [],
  });
  /** A block chosen at `line`, depending on `sources`. */
  const chosen = (line: number, sources: string[] = []): DocState => ({
    block: { ...EMPTY_BLOCK, text: `// block of line ${line}\n` },
    budget: 1000,
    settingsKey: settingsKey(SETTINGS),
    anchorLine: line,
    sources: new Set(sources),
    tried: new Set(),
    receivers: new Set(),
    imported: new Set(),
    importsEnd: 0,
    importsEdited: false,
    checkedAt: 0,
    stale: undefined,
  });
  return { cache, at, chosen };
}

describe("BlockCache: a block per region", () => {
  it("finds a region's block again when the cursor goes back to it, and chooses anew for a region never seen", () => {
    const { cache, at, chosen } = setup();
    expect(cache.staleness(at(10))).toBe("first");
    const first = chosen(10);
    cache.set(URI, first);
    expect(cache.staleness(at(30))).toBeUndefined();
    expect(cache.staleness(at(100))).toBe("region");
    cache.set(URI, chosen(100));
    // Back: the same block, byte for byte (the prompt cache still holds it), without a new choice.
    expect(cache.staleness(at(12))).toBeUndefined();
    expect(cache.get(URI)).toBe(first);
    // And forth again.
    expect(cache.staleness(at(110))).toBeUndefined();
    expect(cache.get(URI)!.anchorLine).toBe(100);
    expect(cache.staleness(at(300))).toBe("region");
  });

  it("moves a kept region with the lines an edit above it adds or removes", () => {
    const { cache, at, chosen } = setup();
    cache.set(URI, chosen(100));
    cache.staleness(at(100));
    cache.set(URI, chosen(300));
    cache.edited(URI, 5, 40);
    // The region of line 100 is at 140 now: 120 is 20 lines from it, 100 is 40.
    expect(cache.staleness(at(120))).toBeUndefined();
    expect(cache.get(URI)!.anchorLine).toBe(140);
    cache.set(URI, chosen(250));
    cache.edited(URI, 10, -100);
    expect(cache.staleness(at(45))).toBeUndefined();
    expect(cache.get(URI)!.anchorLine).toBe(40);
  });

  it("drops a kept region whose file changed, and keeps at most eight", () => {
    const { cache, at, chosen } = setup();
    cache.staleness(at(0));
    cache.set(URI, chosen(0, ["/w/lib.ts"]));
    cache.set(URI, chosen(100));
    cache.sourceChanged("/w/lib.ts");
    expect(cache.staleness(at(5))).toBe("region");
    for (let line = 60; line <= 360; line += 30) cache.set(URI, chosen(line));
    // Kept: the eight before the current (330 … 120); 90 and 60 are gone.
    expect(cache.staleness(at(125))).toBeUndefined();
    expect(cache.staleness(at(60))).toBe("region");
  });

  it("keeps no block that is stale, and every kept block goes with the settings", () => {
    const { cache, at, chosen } = setup();
    cache.staleness(at(0));
    const first = chosen(0);
    cache.set(URI, first);
    cache.invalidateAll("settings");
    cache.set(URI, chosen(200));
    expect(cache.staleness(at(3))).toBe("region");
    cache.set(URI, chosen(3));
    cache.invalidateAll("settings");
    cache.set(URI, chosen(200));
    expect(cache.staleness(at(3))).toBe("region");
  });
});
