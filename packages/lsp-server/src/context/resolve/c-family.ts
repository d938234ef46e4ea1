// C and C++ `#include` resolution, and the include directories of a compilation database. Pure.
import { posix as path } from "node:path";
import type { ResolveEnv } from "../types.js";
import { shellWords } from "./shell-words.js";

/** Folders a project without a compilation database most often passes with `-I` (`-I$(top_srcdir)/include`). */
const CONVENTIONAL_DIRS = ["", "include", "src"] as const;

/**
 * The files an `#include` may name (its path as written, quotes or brackets included), most likely first:
 * `"a/b.h"` beside the including file, then in the include directories of the compilation database
 * (`env.includeDirs`), then at the workspace root and in its `include/` and `src/` (many projects build with
 * `-I$(top_srcdir)` and ship no database), then in the folders above the including file's; `"<a/b.h>"` the same
 * without the including file's folders. System headers (not in the workspace) are left to the host to refuse.
 */
export function cFamilyCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  const angled = specifier.startsWith("<") && specifier.endsWith(">");
  // The grammar gives the path as written: `"a/b.h"` with its quotes, `<a/b.h>` with its brackets.
  const quoted = specifier.length >= 2 && specifier.startsWith('"') && specifier.endsWith('"');
  const name = angled || quoted ? specifier.slice(1, -1).trim() : specifier;
  if (name === "" || name.includes("\0")) return [];
  if (path.isAbsolute(name)) return [path.normalize(name)];
  const dirs = [
    ...(angled ? [] : [path.dirname(fromFile)]),
    ...(env.includeDirs ?? []),
    ...CONVENTIONAL_DIRS.map((dir) => path.join(env.root, dir)),
    ...(angled ? [] : ancestors(path.dirname(fromFile), env.root)),
  ];
  return [...new Set(dirs.map((dir) => path.join(dir, name)))];
}

/**
 * The folders above `dir` up to `root` (excluded), nearest first: a test in `test/integration/` including
 * `"handler_test.h"` of `test/` is built with `-I test`, which a project without a compilation database does not
 * say.
 */
function ancestors(dir: string, root: string): string[] {
  const out: string[] = [];
  for (
    let d = path.dirname(dir);
    d.length > root.length && d.startsWith(root) && d !== dir;
    d = path.dirname(d)
  ) {
    out.push(d);
    if (d === path.dirname(d)) break;
  }
  return out;
}

/** Include options, in the search order of their kinds (GCC's: `-iquote` first, `-idirafter` last). */
const INCLUDE_FLAGS = ["-iquote", "-I", "/I", "-isystem", "-idirafter"] as const;

/** The include directories of one command line's arguments, by kind, relative ones made absolute from `dir`. */
function includeArgs(args: readonly string[], dir: string, into: Map<string, string[]>): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const long = /^--include-directory=(.+)$/.exec(arg);
    let flag: string | undefined = long ? "-I" : undefined;
    let value = long?.[1];
    if (!flag) {
      for (const candidate of INCLUDE_FLAGS) {
        if (!arg.startsWith(candidate)) continue;
        flag = candidate;
        value = arg.length > candidate.length ? arg.slice(candidate.length) : args[++i];
        break;
      }
    }
    if (!flag || value === undefined || value === "") continue;
    const list = into.get(flag === "/I" ? "-I" : flag) ?? [];
    list.push(path.resolve(dir, value));
    into.set(flag === "/I" ? "-I" : flag, list);
  }
}

function ordered(byFlag: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const flag of INCLUDE_FLAGS) for (const dir of byFlag.get(flag) ?? []) out.push(dir);
  return [...new Set(out)];
}

/**
 * The include directories of a `compile_commands.json` (absolute; every entry's `arguments` or `command`, relative
 * to its `directory`, which is relative to `dbDir` when not absolute), `-iquote` ones first. Malformed text or
 * entries give what the well-formed ones say; never throws.
 */
export function compileCommandsIncludeDirs(text: string, dbDir: string): string[] {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(entries)) return [];
  const byFlag = new Map<string, string[]>();
  for (const entry of entries as unknown[]) {
    if (typeof entry !== "object" || entry === null) continue;
    const { directory, arguments: args, command } = entry as Record<string, unknown>;
    const dir = typeof directory === "string" ? path.resolve(dbDir, directory) : dbDir;
    const words = Array.isArray(args)
      ? args.filter((a): a is string => typeof a === "string")
      : typeof command === "string"
        ? shellWords(command)
        : [];
    includeArgs(words, dir, byFlag);
  }
  return ordered(byFlag);
}

/** The include directories of a `compile_flags.txt` (one argument per line, relative to its folder). */
export function compileFlagsIncludeDirs(text: string, dir: string): string[] {
  const byFlag = new Map<string, string[]>();
  const words = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  includeArgs(words, dir, byFlag);
  return ordered(byFlag);
}
