import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProjectEnv } from "../../src/context/project/project-env.js";
import { pathToUri, Workspace } from "../../src/workspace/workspace.js";

let root: string;
const write = (rel: string, text: string) => {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-env-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A ProjectEnv over `root` reading the disk directly; reads recorded. */
function envOf() {
  const workspace = new Workspace();
  workspace.set([{ uri: pathToUri(root) }]);
  const reads: string[] = [];
  const list = (dir: string, dirs: boolean) => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() === dirs)
        .map((e) => e.name)
        .sort();
    } catch {
      return [];
    }
  };
  const env = new ProjectEnv(
    workspace,
    (path) => {
      reads.push(path);
      return readFile(path, "utf8").catch(() => undefined);
    },
    async (dir) => list(dir, true),
    (dir) => list(dir, false),
  );
  return { env, reads };
}

describe("ProjectEnv: the build files of each family", () => {
  it("reads compile_commands.json include dirs for C, keeping only workspace folders", async () => {
    write(
      "build/compile_commands.json",
      JSON.stringify([
        { directory: join(root, "build"), arguments: ["cc", "-I../include", "-I/usr/include", "-c", "x.c"] },
      ]),
    );
    const { env } = envOf();
    expect((await env.for(join(root, "src/x.c"), "c")).includeDirs).toEqual([join(root, "include")]);
    expect((await env.for(join(root, "src/x.cpp"), "cpp")).includeDirs).toEqual([join(root, "include")]);
  });

  it("reads a family's build files only for that family", async () => {
    write("pom.xml", "<project/>");
    write("composer.json", '{"autoload": {"psr-4": {"App\\\\": "src/"}}}');
    const { env, reads } = envOf();
    const python = await env.for(join(root, "src/a.py"), "python");
    expect(python.sourceRoots).toBeUndefined();
    expect(reads.some((r) => r.endsWith("pom.xml") || r.endsWith("composer.json"))).toBe(false);
    expect((await env.for(join(root, "src/main/java/a/B.java"), "java")).sourceRoots?.[0]).toBe(
      join(root, "src/main/java"),
    );
    expect((await env.for(join(root, "src/A.php"), "php")).psr4).toEqual([
      { prefix: "App\\", dirs: [join(root, "src")] },
    ]);
  });

  it("reads the gemspec, Package.swift, mix.exs and dune libraries", async () => {
    write("mygem.gemspec", 'Gem::Specification.new { |s| s.require_paths = ["lib", "ext"] }');
    write("Package.swift", '.target(name: "Core")');
    write("mix.exs", "defmodule App.MixProject do end");
    write("dune-project", "(lang dune 3.0)");
    write("lib/util/dune", "(library (name util))");
    const { env } = envOf();
    expect((await env.for(join(root, "lib/a.rb"), "ruby")).rubyLoadPath).toEqual([
      join(root, "lib"),
      join(root, "ext"),
    ]);
    expect([...((await env.for(join(root, "Sources/App/a.swift"), "swift")).swiftTargets ?? [])]).toEqual([
      ["Core", join(root, "Sources/Core")],
    ]);
    expect((await env.for(join(root, "lib/app.ex"), "elixir")).mixDir).toBe(root);
    expect([...((await env.for(join(root, "bin/main.ml"), "ocaml")).duneLibraries ?? [])]).toEqual([
      ["util", join(root, "lib/util")],
    ]);
  });

  it("reads the crates of a Cargo workspace (members by glob, path dependencies) for every family's base", async () => {
    write("Cargo.toml", '[workspace]\nmembers = ["crates/*"]\n');
    write(
      "crates/a/Cargo.toml",
      '[package]\nname = "crate-a"\n[dependencies]\nshared = { path = "../../shared" }\n',
    );
    write("crates/b/Cargo.toml", '[package]\nname = "crate_b"\n[lib]\npath = "lib.rs"\n');
    write("shared/Cargo.toml", '[package]\nname = "shared"\n');
    const { env } = envOf();
    const crates = (await env.for(join(root, "crates/a/src/lib.rs"), "rust")).crates;
    expect(
      Object.fromEntries([...(crates ?? [])].map(([name, c]) => [name, c.root.slice(root.length + 1)])),
    ).toEqual({
      crate_a: "crates/a/src/lib.rs",
      crate_b: "crates/b/lib.rs",
      shared: "shared/src/lib.rs",
    });
  });

  it("never throws on malformed build files", async () => {
    for (const [name, text] of [
      ["compile_commands.json", "[{"],
      ["pom.xml", "<<<"],
      ["build.gradle", "}}}"],
      ["composer.json", "{"],
      ["Package.swift", ".target("],
      ["Cargo.toml", "[package"],
      ["x.gemspec", "require_paths = ["],
      ["dune-project", "("],
      ["dune", "(library (name"],
    ] as const)
      write(name, text);
    const { env } = envOf();
    for (const family of ["c", "java", "php", "swift", "rust", "ruby", "ocaml", "elixir"] as const) {
      const got = await env.for(join(root, "src/x"), family);
      expect(got.root).toBe(root);
    }
  });

  it("forgets what it read when a project file changes, and only then", async () => {
    const composer = write("composer.json", '{"autoload": {"psr-4": {"A\\\\": "a/"}}}');
    const { env } = envOf();
    const file = join(root, "src/X.php");
    expect((await env.for(file, "php")).psr4?.[0]?.prefix).toBe("A\\");
    writeFileSync(composer, '{"autoload": {"psr-4": {"B\\\\": "b/"}}}');
    env.invalidate(join(root, "src/X.php"));
    expect((await env.for(file, "php")).psr4?.[0]?.prefix).toBe("A\\");
    env.invalidate(composer);
    expect((await env.for(file, "php")).psr4?.[0]?.prefix).toBe("B\\");
    expect(ProjectEnv.isProjectFile(join(root, "my.gemspec"))).toBe(true);
    expect(ProjectEnv.isProjectFile(join(root, "build.gradle.kts"))).toBe(true);
  });
});
