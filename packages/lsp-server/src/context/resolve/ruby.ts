// Ruby: `require_relative` names a file beside the requiring one, `require` one on the load path (the gemspec's
// `lib/`); Rails-like projects autoload a constant from the file its name becomes (Zeitwerk). Pure.
import { posix as path } from "node:path";
import type { ImplicitCandidate, ImplicitScope, ParsedModule, ResolveEnv } from "../types.js";

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

/**
 * Where a constant used without `require` may be defined. By the layout Ruby projects follow (Zeitwerk's, and
 * most gems'), a constant's file is its namespace path under a load-path folder: `Pry::Helpers::Text` is
 * `pry/helpers/text.rb`. Ruby finds a constant in each namespace around the use, innermost first, so the
 * qualifiers written before it (`scope.qualifiers`) are tried under each prefix of the nesting (`scope.nesting`):
 * `Helpers::Text` inside `class Pry; class Code` is `pry/code/helpers/text.rb`, then `pry/helpers/text.rb`, then
 * `helpers/text.rb`, under the load path (`lib/`) and Rails' autoload folders. Then (with its qualifiers' folders)
 * `<snake>.rb` beside the file, in the folder named after the file (`cat.rb`'s `Cat::Formatter` in
 * `cat/formatter.rb`), and directly in those folders.
 */
export function rubyImplicit(
  name: string,
  from: ParsedModule,
  env: ResolveEnv,
  scope?: ImplicitScope,
): ImplicitCandidate[] {
  if (!/^[A-Z][A-Za-z0-9_]*$/.test(name)) return [];
  const file = `${underscore(name)}.rb`;
  const loadPath = env.rubyLoadPath ?? [path.join(env.root, "lib")];
  const autoload = AUTOLOAD_DIRS.map((d) => path.join(env.root, d));
  const roots = [...new Set([...loadPath, ...autoload])];
  const qualifiers = (scope?.qualifiers ?? []).filter((q) => /^[A-Z]/.test(q)).map(underscore);
  const nesting = (scope?.nesting ?? []).map(underscore);
  const paths: string[] = [];
  for (let i = nesting.length; i >= 0; i--) {
    const parts = [...nesting.slice(0, i), ...qualifiers];
    if (parts.length === 0) continue;
    for (const root of roots) paths.push(path.join(root, ...parts, file));
  }
  // Beside the file, then in the folder named after it (`cat.rb`'s nested classes in `cat/`), then flat.
  const own = from.path.endsWith(".rb") ? from.path.slice(0, -3) : undefined;
  const dirs = [path.dirname(from.path), ...(own ? [own] : []), ...autoload, ...loadPath];
  for (const dir of dirs) paths.push(path.join(dir, ...qualifiers, file));
  return [...new Set(paths)].map((p) => ({ path: p }));
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
