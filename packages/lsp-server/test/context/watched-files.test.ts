import { describe, expect, it } from "vitest";
import { WATCHED_FILES } from "../../src/context/files/watched-files.js";
import { SOURCE_EXTENSIONS } from "../../src/context/languages.js";

describe("WATCHED_FILES", () => {
  // Eglot (1.17, Emacs 30) compiles a brace group with `{[^][*{}]+}`: a `*`, a bracket or a nested brace inside one
  // makes it answer the whole registration with an error, and no file is watched.
  it.each(WATCHED_FILES.map((watcher) => [watcher.globPattern]))(
    "%s is in the grammar every client reads",
    (glob) => {
      for (const group of glob.match(/\{[^}]*\}/g) ?? []) expect(group.slice(1, -1)).toMatch(/^[^[\]*{}]+$/);
      expect(glob.split("{").length).toBe(glob.split("}").length);
    },
  );

  it("covers a source of every language context knows, and the project files", () => {
    const watches = (path: string) =>
      WATCHED_FILES.some(({ globPattern }) => {
        const source = globPattern
          .replace(/[.+^$()|\\]/g, "\\$&")
          .replace(/\{([^}]*)\}/g, (_, names: string) => `(${names.split(",").join("|")})`)
          .replace(/\*\*\//g, "\0")
          .replace(/\*/g, "[^/]*")
          .replace(/\0/g, "(?:.*/)?");
        return new RegExp(`^${source}$`).test(path);
      });
    for (const extension of SOURCE_EXTENSIONS)
      expect(watches(`src/deep/main${extension}`), extension).toBe(true);
    expect(watches("infill.gemspec")).toBe(true);
    expect(watches("vendor/lib/compile_commands.json")).toBe(true);
    expect(watches("README.md")).toBe(false);
  });
});
