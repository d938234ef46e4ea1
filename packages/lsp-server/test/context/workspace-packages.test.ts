import { describe, expect, it } from "vitest";
import {
  entryCandidates,
  lernaPackages,
  manifestWorkspaces,
  matchesPattern,
  matchesSegment,
  packagePatterns,
  parseManifest,
  pnpmWorkspacePackages,
  splitPackageSpecifier,
} from "../../src/context/project/workspace-packages.js";
import type { WorkspacePackage } from "../../src/context/types.js";

describe("pnpmWorkspacePackages", () => {
  it.each([
    {
      name: "block list, quoted and not",
      text: "packages:\n  - 'packages/*'\n  - \"apps/**\"\n  - tools\n",
      want: ["packages/*", "apps/**", "tools"],
    },
    {
      name: "other keys before and after",
      text: "onlyBuiltDependencies:\n  - esbuild\npackages:\n  - packages/*\ncatalog:\n  react: ^18\n",
      want: ["packages/*"],
    },
    {
      name: "comments and blank lines",
      text: "# root\npackages:\n\n  # ours\n  - packages/* # all\n  - '!**/test/**'\n",
      want: ["packages/*", "!**/test/**"],
    },
    { name: "flow list", text: "packages: ['packages/*', \"apps/*\"]\n", want: ["packages/*", "apps/*"] },
    {
      name: "list items at column 0",
      text: "packages:\n- packages/*\n- docs\n",
      want: ["packages/*", "docs"],
    },
    { name: "CRLF", text: "packages:\r\n  - packages/*\r\n", want: ["packages/*"] },
    { name: "no packages key", text: "onlyBuiltDependencies:\n  - esbuild\n", want: [] },
    { name: "empty", text: "", want: [] },
  ])("$name", ({ text, want }) => {
    expect(pnpmWorkspacePackages(text)).toEqual(want);
  });
});

describe("manifestWorkspaces and lernaPackages", () => {
  it.each([
    { text: '{"workspaces": ["packages/*", 3]}', want: ["packages/*"] },
    { text: '{"workspaces": {"packages": ["apps/*"], "nohoist": ["x"]}}', want: ["apps/*"] },
    { text: '{"name": "solo"}', want: undefined },
    { text: "not json", want: undefined },
    { text: "[]", want: undefined },
  ])("workspaces of $text", ({ text, want }) => {
    expect(manifestWorkspaces(text)).toEqual(want);
  });

  it("reads lerna.json's packages", () => {
    expect(lernaPackages('{"packages": ["modules/*"], "version": "1.0.0"}')).toEqual(["modules/*"]);
    expect(lernaPackages('{"version": "independent"}')).toBeUndefined();
    expect(lernaPackages("{")).toBeUndefined();
  });
});

describe("packagePatterns and matching", () => {
  it("cuts globs into segments; exclusions marked; globs that leave the root dropped", () => {
    expect(
      packagePatterns(["packages/*", "./apps/**/", "!**/fixtures/**", "../outside", "/abs/*", ""]),
    ).toEqual([
      { exclude: false, segments: ["packages", "*"] },
      { exclude: false, segments: ["apps", "**"] },
      { exclude: true, segments: ["**", "fixtures", "**"] },
    ]);
  });

  it.each([
    { segment: "*", name: "core", want: true },
    { segment: "*", name: ".hidden", want: false },
    { segment: ".*", name: ".hidden", want: true },
    { segment: "pkg-*", name: "pkg-a", want: true },
    { segment: "pkg-*", name: "lib-a", want: false },
    { segment: "v?", name: "v1", want: true },
    { segment: "a.b", name: "axb", want: false },
    { segment: "core", name: "core", want: true },
  ])("segment $segment vs $name", ({ segment, name, want }) => {
    expect(matchesSegment(segment, name)).toBe(want);
  });

  it.each([
    { pattern: ["packages", "*"], parts: ["packages", "core"], want: true },
    { pattern: ["packages", "*"], parts: ["packages", "core", "sub"], want: false },
    { pattern: ["**", "fixtures", "**"], parts: ["packages", "a", "fixtures", "b"], want: true },
    { pattern: ["**", "fixtures", "**"], parts: ["fixtures"], want: true },
    { pattern: ["**", "fixtures", "**"], parts: ["packages", "a"], want: false },
    { pattern: ["apps", "**"], parts: ["apps"], want: true },
  ])("$pattern vs $parts", ({ pattern, parts, want }) => {
    expect(matchesPattern(pattern, parts)).toBe(want);
  });
});

describe("splitPackageSpecifier", () => {
  it.each([
    { specifier: "@infill/core", want: { name: "@infill/core", subpath: "." } },
    { specifier: "@infill/core/usage", want: { name: "@infill/core", subpath: "./usage" } },
    { specifier: "lodash", want: { name: "lodash", subpath: "." } },
    { specifier: "lodash/fp/map", want: { name: "lodash", subpath: "./fp/map" } },
    { specifier: "@scope", want: undefined },
    { specifier: "@scope//x", want: undefined },
  ])("$specifier", ({ specifier, want }) => {
    expect(splitPackageSpecifier(specifier)).toEqual(want);
  });
});

describe("parseManifest", () => {
  it("keeps the fields that say what importing gives, nothing else", () => {
    expect(
      parseManifest(
        '{"name":"@a/b","version":"1.0.0","main":"./dist/index.js","types":"","exports":{".":"./dist/index.js"},"scripts":{}}',
      ),
    ).toEqual({ name: "@a/b", main: "./dist/index.js", exports: { ".": "./dist/index.js" } });
    expect(parseManifest("nope")).toBeUndefined();
    expect(parseManifest('"a string"')).toBeUndefined();
  });
});

const pkg = (manifest: WorkspacePackage["manifest"]): WorkspacePackage => ({
  dir: "/w/packages/core",
  manifest,
});

describe("entryCandidates", () => {
  it("maps exports' build output back to the source, before the built file (this repository's @infill/core)", () => {
    const core = pkg({
      name: "@infill/core",
      main: "./dist/index.js",
      types: "./dist/index.d.ts",
      exports: {
        ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
        "./provider-info": { types: "./dist/providers/info.d.ts", import: "./dist/providers/info.js" },
        "./package.json": "./package.json",
      },
    });
    expect(entryCandidates(core, ".")).toEqual([
      "/w/packages/core/src/index",
      "/w/packages/core/dist/index",
      "/w/packages/core/dist/index.d.ts",
      "/w/packages/core/dist/index.js",
      "/w/packages/core/index",
    ]);
    expect(entryCandidates(core, "./provider-info").slice(0, 2)).toEqual([
      "/w/packages/core/src/providers/info",
      "/w/packages/core/dist/providers/info",
    ]);
    // Not exported: Node would refuse it, so nothing is guessed.
    expect(entryCandidates(core, "./src/client")).toEqual([]);
  });

  it("without exports: source, types, module, main, then src/index; a subpath as written, under src/ first", () => {
    const lib = pkg({ name: "lib", main: "lib/index.js", source: "src/main.ts" });
    expect(entryCandidates(lib, ".")).toEqual([
      "/w/packages/core/src/main",
      "/w/packages/core/src/main.ts",
      "/w/packages/core/src/index",
      "/w/packages/core/lib/index",
      "/w/packages/core/lib/index.js",
      "/w/packages/core/index",
    ]);
    expect(entryCandidates(pkg({ name: "bare" }), "./util/strings")).toEqual([
      "/w/packages/core/src/util/strings",
      "/w/packages/core/util/strings",
    ]);
  });

  it("follows subpath patterns, conditions in a source-first order, nested conditions and fallback lists", () => {
    const patterned = pkg({
      exports: {
        "./*": { import: "./esm/*.mjs", require: "./cjs/*.cjs", source: "./src/*.ts" },
        "./internal/*": null,
        "./nested": { node: { import: "./dist/nested.mjs" }, default: ["./dist/nested.js"] },
      },
    });
    expect(entryCandidates(patterned, "./strings")).toEqual([
      "/w/packages/core/src/strings",
      "/w/packages/core/src/strings.ts",
      "/w/packages/core/esm/strings",
      "/w/packages/core/esm/strings.mjs",
      "/w/packages/core/cjs/strings",
      "/w/packages/core/cjs/strings.cjs",
    ]);
    expect(entryCandidates(patterned, "./internal/x")).toEqual([]);
    expect(entryCandidates(patterned, "./nested")).toEqual([
      "/w/packages/core/src/nested",
      "/w/packages/core/dist/nested",
      "/w/packages/core/dist/nested.mjs",
      "/w/packages/core/dist/nested.js",
    ]);
    // Exports as a bare path: the package's main entry.
    expect(entryCandidates(pkg({ exports: "./dist/index.js" }), ".")[0]).toBe("/w/packages/core/src/index");
  });

  it("never leaves the package", () => {
    const escaping = pkg({
      main: "../other/index.js",
      exports: { "./x": "../../etc/passwd", "./y": "https://x" },
    });
    expect(entryCandidates(escaping, ".")).toEqual(["/w/packages/core/src/index", "/w/packages/core/index"]);
    expect(entryCandidates(escaping, "./x")).toEqual([]);
    expect(entryCandidates(escaping, "./y")).toEqual([]);
  });
});
