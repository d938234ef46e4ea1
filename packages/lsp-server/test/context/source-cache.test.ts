import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { looksBinary, looksMinified } from "../../src/context/files/file-policy.js";
import { IgnoreRules } from "../../src/context/files/ignore-rules.js";
import { SourceCache } from "../../src/context/files/source-cache.js";
import { pathToUri, Workspace } from "../../src/workspace/workspace.js";

let root: string;
let outside: string;
const write = (rel: string, text: string | Uint8Array, base = root) => {
  const path = join(base, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};

function cacheFor(
  exclude: string[] = [],
  options: {
    now?: () => number;
    onChange?: (p: string) => void;
    maxBytes?: number;
    memoryPerByte?: number;
  } = {},
) {
  const workspace = new Workspace();
  workspace.set([{ uri: pathToUri(root) }]);
  let reads = 0;
  const rules = new IgnoreRules(async (path) => {
    try {
      return (await import("node:fs/promises")).readFile(path, "utf8");
    } catch {
      return undefined;
    }
  });
  const cache = new SourceCache<string>({
    workspace,
    ignore: rules,
    exclude: () => exclude,
    parse: (_path, text) => {
      reads++;
      return text;
    },
    ...options,
  });
  return { cache, reads: () => reads, rules };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-ws-"));
  outside = mkdtempSync(join(tmpdir(), "infill-out-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("SourceCache: what may be read", () => {
  it.each([
    ["src/a.ts", true],
    [".env", false],
    [".env.local", false],
    ["config/prod.env", false],
    ["certs/server.pem", false],
    ["keys/deploy.key", false],
    ["home/.ssh/id_rsa", false],
    ["id_ed25519.pub", false],
    ["store.p12", false],
    [".npmrc", false],
    ["gcp/credentials.json", false],
    ["gcp/app-credentials.json", false],
    ["secrets.py", false],
    ["node_modules/lib/index.ts", false],
    [".git/config", false],
    ["infra/prod.tfvars", false],
  ])("%s: %s", async (rel, readable) => {
    const path = write(rel, "export const x = 1;\n");
    const { cache } = cacheFor();
    expect(await cache.load(path)).toBe(readable ? "export const x = 1;\n" : undefined);
  });

  it("lists the subdirectories the rules let in: not node_modules, ignored output, excluded or outside ones", async () => {
    write(".gitignore", "dist/\nbuild\n");
    for (const dir of [
      "packages/a/src",
      "packages/b",
      "node_modules/x",
      "dist/y",
      "build/z",
      "vendor/v",
      ".git/objects",
    ])
      write(`${dir}/file.ts`, "");
    write("packages/file.ts", "");
    const { cache } = cacheFor(["vendor/"]);
    expect(await cache.subdirectories(root)).toEqual(["packages"]);
    expect(await cache.subdirectories(join(root, "packages"))).toEqual(["a", "b"]);
    expect(await cache.subdirectories(join(root, "missing"))).toEqual([]);
    expect(await cache.subdirectories(outside)).toEqual([]);
  });

  it("honours .gitignore at every level, re-inclusions, .git/info/exclude and context.exclude", async () => {
    write(".gitignore", "dist/\n*.gen.ts\n!keep.gen.ts\n");
    write("pkg/.gitignore", "local/\n");
    write(".git/info/exclude", "scratch.ts\n");
    const files = {
      "src/a.ts": true,
      "dist/a.ts": false,
      "src/x.gen.ts": false,
      "src/keep.gen.ts": true,
      "pkg/local/a.ts": false,
      "local/a.ts": true,
      "scratch.ts": false,
      "src/vendor/lib.ts": false,
    };
    for (const rel of Object.keys(files)) write(rel, "let a = 1;\n");
    const { cache } = cacheFor(["src/vendor/"]);
    for (const [rel, readable] of Object.entries(files)) {
      expect([rel, await cache.load(join(root, rel))]).toEqual([rel, readable ? "let a = 1;\n" : undefined]);
    }
  });

  it("reads nothing outside the workspace, also through a symlink, and no directory", async () => {
    const secret = write("secret.ts", "export const token = 'x';\n", outside);
    symlinkSync(secret, join(root, "link.ts"));
    symlinkSync(outside, join(root, "linked-dir"));
    mkdirSync(join(root, "dir.ts"));
    const { cache } = cacheFor();
    expect(await cache.load(secret)).toBeUndefined();
    expect(await cache.load(join(root, "link.ts"))).toBeUndefined();
    expect(await cache.load(join(root, "linked-dir", "secret.ts"))).toBeUndefined();
    expect(await cache.load(join(root, "dir.ts"))).toBeUndefined();
    expect(await cache.load(join(root, "missing.ts"))).toBeUndefined();
  });

  it("follows a symlink that stays inside the workspace, under the rules of its target", async () => {
    write("src/real.ts", "export const a = 1;\n");
    write("src/.env.ts", "export const key = 'k';\n");
    write(".gitignore", "private/\n");
    write("private/p.ts", "export const p = 1;\n");
    symlinkSync(join(root, "src/real.ts"), join(root, "alias.ts"));
    symlinkSync(join(root, "private/p.ts"), join(root, "public.ts"));
    const { cache } = cacheFor();
    expect(await cache.load(join(root, "alias.ts"))).toBe("export const a = 1;\n");
    expect(await cache.load(join(root, "public.ts"))).toBeUndefined();
  });

  it("skips files over 1 MiB, binary files and minified code", async () => {
    const big = write("big.ts", `${"// x\n".repeat(220_000)}`);
    const binary = write("img.ts", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    const minified = write("lib.min.js", `var a=${"1+".repeat(2000)}1;\n`);
    const { cache } = cacheFor();
    expect(await cache.load(big)).toBeUndefined();
    expect(await cache.load(binary)).toBeUndefined();
    expect(await cache.load(minified)).toBeUndefined();
  });
});

describe("SourceCache: caching", () => {
  it("reads once, answers from memory without I/O, and re-checks a stale entry in the background", async () => {
    let now = 0;
    const changed: string[] = [];
    const path = write("a.ts", "one\n");
    const { cache, reads } = cacheFor([], { now: () => now, onChange: (p) => changed.push(p) });
    const [a, b] = await Promise.all([cache.load(path), cache.load(path)]);
    expect([a, b, reads()]).toEqual(["one\n", "one\n", 1]);
    expect(cache.peek(path)).toEqual({ value: "one\n" });
    expect(cache.get(path)).toBe("one\n");

    writeFileSync(path, "two, longer\n");
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(cache.peek(path)).toEqual({ value: "one\n" }); // fresh: trusted
    now = 10_000;
    expect(cache.peek(path)).toEqual({ value: "one\n" }); // stale: served, re-checked
    await expect.poll(() => changed).toEqual([path]);
    expect(await cache.load(path)).toBe("two, longer\n");
    expect(reads()).toBe(2);
  });

  it("remembers a file it may not read without re-reading it, until it changes", async () => {
    let now = 0;
    const changed: string[] = [];
    const path = write(".env", "KEY=1\n");
    const { cache } = cacheFor([], { now: () => now, onChange: (p) => changed.push(p) });
    expect(await cache.load(path)).toBeUndefined();
    now = 10_000;
    expect(cache.peek(path)).toEqual({ value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changed).toEqual([]);
  });

  it("bounds the memory its entries hold, a file it may not read counting only its record", async () => {
    const paths = ["a", "b", "c", "d"].map((name) => write(`src/${name}.ts`, "x".repeat(1000)));
    const big = write("logs/huge.ts", "y".repeat(2 * 1024 * 1024));
    // Room for two parses of 1000-byte files at 3.5 bytes of memory per byte, not for three.
    const { cache, reads } = cacheFor([], { maxBytes: 7500, memoryPerByte: 3.5 });
    for (const path of paths) await cache.load(path);
    expect(paths.map((path) => cache.peek(path) !== undefined)).toEqual([false, false, true, true]);
    // Over 1 MiB: not read, remembered, and the files held stay.
    expect(await cache.load(big)).toBeUndefined();
    expect(cache.peek(big)).toEqual({ value: undefined });
    expect(paths.map((path) => cache.peek(path) !== undefined)).toEqual([false, false, true, true]);
    expect(reads()).toBe(4);
  });

  it("lists a directory's regular files, and forgets an invalidated file", async () => {
    write("pkg/a.go", "package pkg\n");
    write("pkg/b.go", "package pkg\n");
    mkdirSync(join(root, "pkg/sub"));
    const { cache, reads } = cacheFor();
    expect([...((await cache.list(join(root, "pkg"))) ?? [])].sort()).toEqual(["a.go", "b.go"]);
    expect(await cache.list(outside)).toBeUndefined();
    await cache.load(join(root, "pkg/a.go"));
    cache.invalidate(join(root, "pkg/a.go"));
    await cache.load(join(root, "pkg/a.go"));
    expect(reads()).toBe(2);
  });
});

describe("file policy", () => {
  it.each([
    ["plain text", new TextEncoder().encode("hello\n"), false],
    ["a NUL byte", new Uint8Array([104, 0, 105]), true],
    ["empty", new Uint8Array(), false],
  ])("looksBinary: %s", (_name, bytes, expected) => {
    expect(looksBinary(bytes)).toBe(expected);
  });

  it.each([
    ["ordinary code", "const a = 1;\n".repeat(1000), false],
    ["one very long line", `x=${"a".repeat(1200)}\n`, true],
    ["long lines on average", `${"y".repeat(900)}\n`.repeat(10), true],
    ["a short file of long-ish lines", `${"z".repeat(400)}\n`.repeat(5), false],
  ])("looksMinified: %s", (_name, text, expected) => {
    expect(looksMinified(text)).toBe(expected);
  });
});
