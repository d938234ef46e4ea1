import { describe, expect, it } from "vitest";
import { extendsCandidates, mergeTsconfigs, parseTsconfig } from "../../src/context/project/tsconfig.js";

describe("parseTsconfig", () => {
  it("reads baseUrl, paths and extends from JSON with comments and trailing commas", () => {
    const text = `{
      // comments are fine
      "extends": "./tsconfig.base.json",
      "compilerOptions": {
        /* so is this */
        "baseUrl": "./src",
        "paths": { "@/*": ["./*"], "bad": "not-an-array", "mixed": ["ok", 1], },
      },
    }`;
    expect(parseTsconfig(text, "/w/app")).toEqual({
      dir: "/w/app",
      extends: ["./tsconfig.base.json"],
      baseUrl: "/w/app/src",
      paths: { "@/*": ["./*"] },
    });
  });

  it.each([
    { text: "", want: { dir: "/w", extends: [] } },
    { text: "not json at all {{{", want: { dir: "/w", extends: [] } },
    { text: "[1, 2]", want: { dir: "/w", extends: [] } },
    { text: '{"compilerOptions": null, "extends": 3}', want: { dir: "/w", extends: [] } },
    {
      text: '{"extends": ["@tsconfig/node20", "./a.json", ""]}',
      want: { dir: "/w", extends: ["@tsconfig/node20", "./a.json"] },
    },
  ])("never throws: $text", ({ text, want }) => {
    expect(parseTsconfig(text, "/w")).toEqual(want);
  });
});

describe("extendsCandidates", () => {
  it("resolves a relative entry, with .json added when missing", () => {
    expect(extendsCandidates("../base", "/w/app")).toEqual([
      "/w/base.json",
      "/w/base",
      "/w/base/tsconfig.json",
    ]);
    expect(extendsCandidates("./tsconfig.base.json", "/w")).toEqual(["/w/tsconfig.base.json"]);
  });

  it("looks for a package in node_modules from the directory up", () => {
    expect(extendsCandidates("@tsconfig/node20", "/w/app")).toEqual([
      "/w/app/node_modules/@tsconfig/node20/tsconfig.json",
      "/w/node_modules/@tsconfig/node20/tsconfig.json",
      "/node_modules/@tsconfig/node20/tsconfig.json",
    ]);
    expect(extendsCandidates("pkg/strict.json", "/w")).toEqual([
      "/w/node_modules/pkg/strict.json",
      "/node_modules/pkg/strict.json",
    ]);
  });
});

describe("mergeTsconfigs", () => {
  it("takes each option from the nearest config that sets it", () => {
    const child = parseTsconfig('{"compilerOptions": {"paths": {"@/*": ["src/*"]}}}', "/w/app");
    const base = parseTsconfig('{"compilerOptions": {"baseUrl": ".", "paths": {"x": ["y"]}}}', "/w");
    expect(mergeTsconfigs([child, base])).toEqual({
      dir: "/w/app",
      baseUrl: "/w",
      paths: { "@/*": ["src/*"] },
    });
    expect(mergeTsconfigs([base])).toEqual({ dir: "/w", baseUrl: "/w", paths: { x: ["y"] } });
  });

  it("is undefined when no config sets baseUrl or paths", () => {
    expect(mergeTsconfigs([parseTsconfig("{}", "/w")])).toBeUndefined();
    expect(mergeTsconfigs([])).toBeUndefined();
  });
});
