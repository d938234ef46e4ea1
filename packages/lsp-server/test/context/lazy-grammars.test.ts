// A grammar loads when a document of its language is first read, never at start-up.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadedGrammars } from "../../src/context/syntax/runtime.js";
import { CURSOR, sessions } from "../support/session.js";

const start = sessions();
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-lazy-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it("loads no grammar to start or to complete TypeScript, C's once a C document opens (its C header too), C++'s once C++ is read", async () => {
  writeFileSync(join(root, "util.h"), '/* A class of helpers. */\nextern "C" int twice(int x);\n');
  writeFileSync(join(root, "shape.h"), "class Shape {\n public:\n  double area() const;\n};\n");
  const s = await start({
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "w" }],
    initializationOptions: { debounceMs: 0 },
  });
  expect(loadedGrammars()).toEqual([]);
  const ts = pathToFileURL(join(root, "a.ts")).href;
  await s.inline(ts, await s.open(ts, `export const a = Math.max(${CURSOR}\n`));
  expect(loadedGrammars()).toEqual([]);
  const c = pathToFileURL(join(root, "main.c")).href;
  await s.inline(c, await s.open(c, `#include "util.h"\nint main(void) { return twice(${CURSOR}\n`, "c"));
  // The header, read from disk, has no language id: a `.h` whose code shows no C++ is C's.
  expect((s.sim.requests.at(-1)!.body as { prompt: string }).prompt).toMatch(
    /^\/\/ util\.h\nextern "C" int twice\(int x\);\n/,
  );
  expect(loadedGrammars()).toEqual(["c"]);
  // A header with a class is C++'s.
  const cpp = pathToFileURL(join(root, "draw.cpp")).href;
  await s.inline(
    cpp,
    await s.open(cpp, `#include "shape.h"\ndouble draw(const Shape& s) { return s.area(${CURSOR}\n`, "cpp"),
  );
  expect((s.sim.requests.at(-1)!.body as { prompt: string }).prompt).toContain("// shape.h\nclass Shape {");
  expect(loadedGrammars()).toEqual(["c", "cpp"]);
});
