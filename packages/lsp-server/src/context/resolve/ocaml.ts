// OCaml: a module `Foo` is the file `foo.ml` (its interface `foo.mli` first) of the same dune library, or a
// library of the project by its `(name …)`; no import is needed to name one. Pure.
import { posix as path } from "node:path";
import type { ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

const MODULE = /^[A-Z][A-Za-z0-9_']*$/;

function moduleFiles(dir: string, name: string): string[] {
  const lower = name[0]!.toLowerCase() + name.slice(1);
  return [`${lower}.mli`, `${lower}.ml`, `${name}.mli`, `${name}.ml`].map((f) => path.join(dir, f));
}

/**
 * The files a module path names: `Foo` → `foo.mli`, `foo.ml` beside the file, then the library named `foo` (its
 * folder); `Lib.Foo` → `foo.mli`, `foo.ml` in library `lib`'s folder.
 */
export function ocamlCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  const segments = specifier.split(".");
  if (!segments.every((s) => MODULE.test(s))) return [];
  const libraryDir = (name: string) => env.duneLibraries?.get(name[0]!.toLowerCase() + name.slice(1));
  if (segments.length === 1) {
    const name = segments[0]!;
    const lib = libraryDir(name);
    return [...moduleFiles(path.dirname(fromFile), name), ...(lib === undefined ? [] : [`${lib}/`])];
  }
  const lib = libraryDir(segments[0]!);
  const dir = lib ?? path.join(path.dirname(fromFile), ...segments.slice(1, -1).map((s) => s.toLowerCase()));
  return moduleFiles(lib === undefined ? dir : path.join(lib), segments.at(-1)!);
}

/** `Foo.x` without `open`: the module `Foo` of the same library (the file is the module), or a library `foo`. */
export function ocamlImplicit(name: string, from: ParsedModule, env: ResolveEnv): ImplicitCandidate[] {
  if (!MODULE.test(name)) return [];
  return ocamlCandidates(name, from.path, env).map((p) => ({ path: p, module: true }));
}

/** The libraries a `dune` file declares: `(library (name foo) …)` → `foo`, all in its folder. Never throws. */
export function duneLibraryNames(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/\(\s*library\b[\s\S]*?\(\s*name\s+([A-Za-z_][A-Za-z0-9_']*)\s*\)/g))
    names.push(match[1]!);
  return names;
}
