// Ruby: `require_relative` names a file beside the requiring one, `require` one on the load path (the gemspec's
// `lib/`); Rails-like projects autoload a constant from the file its name becomes (Zeitwerk). Pure.
import { posix as path } from "node:path";
import type { ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

/** Where Rails (Zeitwerk) autoloads constants from, under the root; the file's own folder comes first. */
const AUTOLOAD_DIRS = [
  "app/models",
  "app/models/concerns",
  "app/controllers",
  "app/controllers/concerns",
  "app/helpers",
  "app/services",
  "app/jobs",
  "app/mailers",
  "app/channels",
  "app/lib",
  "lib",
] as const;

function withRb(file: string): string[] {
  return file.endsWith(".rb") ? [file] : [`${file}.rb`, file];
}

/**
 * The files a `require` may name: `"./x"` (how `require_relative "x"` is written) beside the file; `"x/y"` under
 * each load-path folder (`env.rubyLoadPath`, else `lib/`), then at the root. `.rb` added unless written.
 */
export function rubyCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  if (specifier === "" || specifier.includes("\0")) return [];
  if (path.isAbsolute(specifier)) return withRb(path.normalize(specifier));
  if (specifier.startsWith(".")) return withRb(path.join(path.dirname(fromFile), specifier));
  const roots = [...(env.rubyLoadPath ?? [path.join(env.root, "lib")]), env.root];
  return [...new Set(roots.flatMap((root) => withRb(path.join(root, specifier))))];
}

/** A constant's file name as Zeitwerk derives it: `UserProfile` → `user_profile`, `HTTPClient` → `http_client`. */
export function underscore(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** Where a constant used without `require` may be defined: `<snake>.rb` beside the file, then the autoload folders. */
export function rubyImplicit(name: string, from: ParsedModule, env: ResolveEnv): ImplicitCandidate[] {
  if (!/^[A-Z][A-Za-z0-9_]*$/.test(name)) return [];
  const file = `${underscore(name)}.rb`;
  const dirs = [
    path.dirname(from.path),
    ...AUTOLOAD_DIRS.map((d) => path.join(env.root, d)),
    ...(env.rubyLoadPath ?? []),
  ];
  return [...new Set(dirs.map((d) => path.join(d, file)))].map((p) => ({ path: p }));
}

/** The load path of a gemspec: its `require_paths` (default `lib`), absolute. Never throws. */
export function gemspecRequirePaths(text: string, dir: string): string[] {
  const match = /\brequire_paths\s*=\s*(\[[^\]]*\]|%w[[(][^\])]*[\])]|"[^"]*"|'[^']*')/.exec(text);
  let paths = ["lib"];
  if (match) {
    const value = match[1]!;
    paths = value.startsWith("%w")
      ? value.slice(3, -1).split(/\s+/).filter(Boolean)
      : [...value.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
  }
  return paths.map((p) => path.resolve(dir, p));
}
