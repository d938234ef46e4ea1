import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root folder. */
export const root = fileURLToPath(new URL("..", import.meta.url));

/** What the tests read from a package.json. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  files?: string[];
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: { node?: string };
  publishConfig?: { access?: string };
}

/** A workspace package: its folder under packages/ and its manifest. */
export interface WorkspacePackage {
  dir: string;
  path: string;
  manifest: Manifest;
}

/** Every package under packages/, in folder order. */
export function workspacePackages(): WorkspacePackage[] {
  return readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, "packages", entry.name))
    .flatMap((path) => {
      try {
        const manifest = JSON.parse(readFileSync(join(path, "package.json"), "utf8")) as Manifest;
        return [{ dir: path.split("/").at(-1)!, path, manifest }];
      } catch {
        return [];
      }
    });
}

/** The packages that go to npm. */
export function publishedPackages(): WorkspacePackage[] {
  return workspacePackages().filter((pkg) => !pkg.manifest.private);
}
