// Bash: `source x.sh` / `. x.sh` reads a file; scripts name it relative to themselves or to where they run. Pure.
import { posix as path } from "node:path";
import type { ResolveEnv } from "../types.js";

/** The file a `source` names: `./x.sh` beside the script; a bare `x.sh` beside it, then at the workspace root. */
export function bashCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  if (specifier === "" || specifier.includes("\0") || specifier.includes("$")) return [];
  if (path.isAbsolute(specifier)) return [path.normalize(specifier)];
  const beside = path.join(path.dirname(fromFile), specifier);
  if (specifier.startsWith(".")) return [beside];
  return [...new Set([beside, path.join(env.root, specifier)])];
}
