// Zig: `@import("x.zig")` names a file relative to the importing one; `@import("std")` and build modules none. Pure.
import { posix as path } from "node:path";
import type { ResolveEnv } from "../types.js";

/** The file an `@import` names, relative to the importing file; packages (no `.zig`) give `[]`. */
export function zigCandidates(specifier: string, fromFile: string, _env: ResolveEnv): string[] {
  if (!specifier.endsWith(".zig") || specifier.includes("\0")) return [];
  return [
    path.isAbsolute(specifier) ? path.normalize(specifier) : path.join(path.dirname(fromFile), specifier),
  ];
}
