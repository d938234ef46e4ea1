import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishedPackages, root, workspacePackages } from "./packages.js";

// What npm shows and installs, checked from the sources: the packed tarballs themselves are checked by
// tarballs.test.ts.

const license = readFileSync(join(root, "LICENSE"), "utf8");

describe("package metadata", () => {
  it("agrees with the root package.json (repository, homepage, bugs, license, engines, access)", () => {
    // Exits 1 naming each package.json or document that differs; nothing is written with --check.
    expect(() =>
      execFileSync(process.execPath, [join(root, "scripts", "sync-package-metadata.mjs"), "--check"], {
        stdio: "pipe",
      }),
    ).not.toThrow();
  });

  it.each(publishedPackages().map((pkg) => [pkg.manifest.name, pkg] as const))(
    "%s: a description, keywords, its own LICENSE and entry points npm keeps as written",
    (_name, { path, manifest }) => {
      expect(manifest.description).toBeTruthy();
      expect(manifest.keywords?.length).toBeGreaterThan(0);
      expect(readFileSync(join(path, "LICENSE"), "utf8"), "LICENSE is a copy of the root's").toBe(license);
      // npm rewrites "./dist/cli.js" to "dist/cli.js" with a warning on publish.
      for (const target of Object.values(manifest.bin ?? {})) expect(target).not.toMatch(/^\.\//);
      const main = manifest.exports?.["."] as Record<string, string> | undefined;
      if (main) {
        // `default` serves both import and require() (Node 20.19+ loads ES modules through require()).
        expect(Object.keys(main)).toEqual(["types", "default"]);
      }
    },
  );

  it.each(publishedPackages().map((pkg) => [pkg.manifest.name, pkg] as const))(
    "%s: its README stands alone on npm (absolute links only)",
    (_name, { path }) => {
      const readme = readFileSync(join(path, "README.md"), "utf8");
      const relative = [...readme.matchAll(/\]\(([^)]+)\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^(https?:|mailto:|#)/.test(target));
      expect(relative).toEqual([]);
    },
  );

  it.each(
    workspacePackages()
      .filter((pkg) => existsSync(join(pkg.path, "src", "version.ts")))
      .map((pkg) => [pkg.manifest.name, pkg] as const),
  )("%s: src/version.ts has the package's version (scripts/sync-versions.mjs writes it)", (_name, pkg) => {
    const source = readFileSync(join(pkg.path, "src", "version.ts"), "utf8");
    expect(source).toContain(`export const VERSION = ${JSON.stringify(pkg.manifest.version)};`);
  });

  it("the Neovim plugin's install is written the same everywhere (README, plugin README, :help infill)", () => {
    const read = (path: string) => readFileSync(join(root, path), "utf8");
    const documents = [
      "README.md",
      "packages/neovim-plugin/README.md",
      "packages/neovim-plugin/doc/infill.txt",
    ];
    const builds = new Set(
      documents.flatMap((doc) =>
        [...read(doc).matchAll(/npx --yes pnpm@10 install --frozen-lockfile[^"'\n]*/g)].map(
          (match) => match[0],
        ),
      ),
    );
    expect([...builds]).toHaveLength(1);
    // The lazy.nvim spec: the plugin README's (which packages/neovim-plugin/test/install runs) and the root README's.
    const lazySpec = (text: string) =>
      /```lua\n( *)\{\n\1 {2}url = [\s\S]*?\n\1\}\n/
        .exec(text)?.[0]
        .split("\n")
        .map((line) => line.trim())
        .join("\n");
    expect(lazySpec(read("packages/neovim-plugin/README.md"))).toBeTruthy();
    expect(lazySpec(read("README.md"))).toBe(lazySpec(read("packages/neovim-plugin/README.md")));
  });
});
