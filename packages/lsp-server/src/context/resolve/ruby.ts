// Ruby: `require_relative` names a file beside the requiring one, `require` one on the load path (the gemspec's
// `lib/`); Rails-like projects autoload a constant from the file its name becomes (Zeitwerk). Pure.
import { posix as path } from "node:path";
import { rubyConstantPath } from "../scan/constant-path.js";
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
  const rawNesting = scope?.nesting ?? [];
  const folders = namespaceFolders(from, loadPath, rawNesting);
  const rawQualifiers = (scope?.qualifiers ?? []).filter((q) => /^[A-Z]/.test(q));
  const paths: string[] = [];
  for (let i = nesting.length; i >= 0; i--) {
    const parts = [...nesting.slice(0, i), ...qualifiers];
    if (parts.length === 0) continue;
    for (const root of roots) paths.push(path.join(root, ...parts, file));
    // The gem's own folder for its namespace (`Gem::Specification` in `rubygems/specification.rb`).
    const constants = [...rawNesting.slice(0, i), ...rawQualifiers];
    for (const { namespace, folder } of folders) {
      if (namespace.length > constants.length || !namespace.every((n, j) => n === constants[j])) continue;
      const below = constants.slice(namespace.length).map(underscore);
      paths.push(path.join(folder, ...below, file));
    }
  }
  // Beside the file, then in the folder named after it (`cat.rb`'s nested classes in `cat/`), then flat.
  const own = from.path.endsWith(".rb") ? from.path.slice(0, -3) : undefined;
  const dirs = [path.dirname(from.path), ...(own ? [own] : []), ...autoload, ...loadPath];
  for (const dir of dirs) paths.push(path.join(dir, ...qualifiers, file));
  return [...new Set(paths)].map((p) => ({ path: p }));
}

/** Per module and load path: the folders its own path and declarations say its namespaces live in. */
const foldersOf = new WeakMap<ParsedModule, { key: string; folders: NamespaceFolder[] }>();

/** A namespace (`["Gem"]`) and the folder its constants' files are in (`/w/lib/rubygems`). */
export interface NamespaceFolder {
  readonly namespace: readonly string[];
  readonly folder: string;
}

/**
 * The namespace a file's path under a load-path folder gives a constant path it declares, aligned from their ends:
 * `rubygems/commands/install_command` declaring `Gem::Commands::InstallCommand` puts `Gem` in `rubygems/`, one
 * name for one folder. Undefined when the lengths differ, the names all match (the plain paths find those), or
 * nothing matches but in a gem's root file (`rubygems.rb` declaring `Gem`).
 */
function folderFor(
  constants: readonly string[],
  segments: readonly string[],
  root: string,
): NamespaceFolder | undefined {
  if (constants.length !== segments.length) return undefined;
  let same = 0;
  while (
    same < constants.length &&
    underscore(constants[constants.length - 1 - same]!) === segments[segments.length - 1 - same]
  )
    same++;
  const left = constants.length - same;
  if (left === 0 || (same === 0 && constants.length > 1)) return undefined;
  return { namespace: constants.slice(0, left), folder: path.join(root, ...segments.slice(0, left)) };
}

/**
 * The folders a file's own place says its namespaces live in, where they are not named after them: a gem whose
 * folder is not its namespace's (`lib/rubygems/` holds `Gem::`). From the constant paths of the file's classes and
 * modules, and of the types around the cursor (`nesting`, as written: the outline of a file being edited may
 * lack them).
 */
export function namespaceFolders(
  from: ParsedModule,
  loadPath: readonly string[],
  nesting: readonly string[] = [],
): readonly NamespaceFolder[] {
  const root = loadPath.find((r) => from.path.startsWith(`${r}/`));
  if (root === undefined || !from.path.endsWith(".rb")) return [];
  const segments = from.path.slice(root.length + 1, -3).split("/");
  const key = loadPath.join("\0");
  let cached = foldersOf.get(from);
  if (cached?.key !== key) {
    const folders: NamespaceFolder[] = [];
    for (const d of from.outline.declarations) {
      if (d.kind !== "class" && d.kind !== "module") continue;
      const found = folderFor(rubyConstantPath(from, d), segments, root);
      if (found && !folders.some((f) => f.namespace.join("::") === found.namespace.join("::")))
        folders.push(found);
    }
    cached = { key, folders };
    foldersOf.set(from, cached);
  }
  const around = folderFor(nesting, segments, root);
  return around && !cached.folders.some((f) => f.namespace.join("::") === around.namespace.join("::"))
    ? [around, ...cached.folders]
    : cached.folders;
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
