// A package pinned by exact version and integrity hash: from this repository's install when the lockfile pins the
// very same tarball, otherwise packed from the npm registry into a cache outside the repository and checked.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A package pinned for an evaluation. */
export interface PinnedPackage {
  readonly name: string;
  /** An exact version. */
  readonly version: string;
  /** The tarball's Subresource Integrity string (`sha512-…`), as the registry and lockfiles record it. */
  readonly integrity: string;
}

/** Where a pinned package's files are, and how they got there. */
export interface PackageFiles {
  /** The package folder (holding its `package.json`). */
  readonly dir: string;
  /** `lockfile` (this repository's install) or `registry` (packed into the cache). */
  readonly from: "lockfile" | "registry";
}

/** The folder packed tarballs are cached in: `$XDG_CACHE_HOME/infill/eval` (default `~/.cache/infill/eval`). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "infill", "eval");
}

/**
 * The files of a pinned package. The repository's pnpm install is used when `pnpm-lock.yaml` records the same
 * integrity for the same version (pnpm verified the tarball against it); otherwise `npm pack name@version` fills
 * the cache, the tarball's SHA-512 must equal the pin (a mismatch deletes it and throws), and it is unpacked into
 * a new folder under `scratch`.
 */
export async function packageFiles(
  pkg: PinnedPackage,
  repoRoot: string,
  scratch: string,
): Promise<PackageFiles> {
  const installed = path.join(
    repoRoot,
    "node_modules",
    ".pnpm",
    `${pkg.name.replace("/", "+")}@${pkg.version}`,
  );
  const lockfile = readFileSync(path.join(repoRoot, "pnpm-lock.yaml"), "utf8");
  const pinnedInLockfile = lockfile.includes(
    `  ${pkg.name}@${pkg.version}:\n    resolution: {integrity: ${pkg.integrity}}`,
  );
  const dir = path.join(installed, "node_modules", pkg.name);
  if (pinnedInLockfile && existsSync(path.join(dir, "package.json"))) return { dir, from: "lockfile" };

  const cache = cacheDir();
  mkdirSync(cache, { recursive: true });
  const tarball = path.join(cache, `${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}.tgz`);
  if (!existsSync(tarball) || integrityOf(tarball) !== pkg.integrity) {
    rmSync(tarball, { force: true });
    await run("npm", ["pack", `${pkg.name}@${pkg.version}`, "--pack-destination", cache, "--silent"], {
      cwd: cache,
    });
    const got = integrityOf(tarball);
    if (got !== pkg.integrity) {
      rmSync(tarball, { force: true });
      throw new Error(
        `${pkg.name}@${pkg.version}: the registry's tarball has integrity ${got}, the eval pins ${pkg.integrity}`,
      );
    }
  }
  const unpacked = mkdtempSync(path.join(scratch, "package-"));
  await run("tar", ["-xzf", tarball, "-C", unpacked]);
  return { dir: path.join(unpacked, "package"), from: "registry" };
}

function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}
