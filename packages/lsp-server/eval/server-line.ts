// The server an eval measures, in one line: its file, when it was built, and the commit checked out.
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";

/** `dist/infill-lsp.js built <time> from <commit>` (and whether the server's source has uncommitted changes). */
export function serverLine(bin: string, repoRoot: string): string {
  const built = statSync(bin)
    .mtime.toISOString()
    .replace(/\.\d+Z$/, "Z");
  let commit = "unknown commit";
  try {
    commit = execFileSync("git", ["-C", repoRoot, "rev-parse", "--short=12", "HEAD"], {
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync(
      "git",
      ["-C", repoRoot, "status", "--porcelain", "--", "packages/lsp-server/src"],
      {
        encoding: "utf8",
      },
    );
    if (dirty) commit += " + uncommitted changes in packages/lsp-server/src";
  } catch {}
  return `${path.relative(repoRoot, bin)} built ${built} from ${commit}`;
}
