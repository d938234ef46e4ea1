import { posix as path } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import type { TsconfigPaths } from "../types.js";

/** What one tsconfig.json or jsconfig.json says about module resolution. */
export interface ParsedTsconfig {
  /** The directory of the file (absolute). */
  readonly dir: string;
  /** `extends`, as written (one or several; TypeScript 5 accepts an array). */
  readonly extends: readonly string[];
  /** `compilerOptions.baseUrl`, absolute. */
  readonly baseUrl?: string;
  /** `compilerOptions.paths`, as written (entries that are not arrays of strings left out). */
  readonly paths?: Readonly<Record<string, readonly string[]>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The module options of a tsconfig's text (JSON with comments and trailing commas) in directory `dir`; what
 * cannot be read is left out. Never throws.
 */
export function parseTsconfig(text: string, dir: string): ParsedTsconfig {
  const errors: ParseError[] = [];
  let json: unknown;
  try {
    json = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch {
    json = undefined;
  }
  const config = isRecord(json) ? json : {};
  const extendsValue = config.extends;
  const extendsList = (Array.isArray(extendsValue) ? extendsValue : [extendsValue]).filter(
    (e): e is string => typeof e === "string" && e !== "",
  );
  const options = isRecord(config.compilerOptions) ? config.compilerOptions : {};
  const baseUrl = typeof options.baseUrl === "string" ? path.resolve(dir, options.baseUrl) : undefined;
  let paths: Record<string, readonly string[]> | undefined;
  if (isRecord(options.paths)) {
    paths = {};
    for (const [pattern, targets] of Object.entries(options.paths)) {
      if (Array.isArray(targets) && targets.every((t) => typeof t === "string")) paths[pattern] = targets;
    }
  }
  return {
    dir,
    extends: extendsList,
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(paths === undefined ? {} : { paths }),
  };
}

/**
 * Where an `extends` entry of a tsconfig in `dir` may be, most likely first: a relative or absolute path (with
 * `.json` added when missing), else a package's file under each `node_modules` from `dir` up.
 */
export function extendsCandidates(entry: string, dir: string): string[] {
  const withJson = (p: string) =>
    p.endsWith(".json") ? [p] : [`${p}.json`, p, path.join(p, "tsconfig.json")];
  if (entry.startsWith(".") || entry.startsWith("/")) return withJson(path.resolve(dir, entry));
  const candidates: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    const base = path.join(d, "node_modules", entry);
    candidates.push(
      ...(entry.split("/").length > (entry.startsWith("@") ? 2 : 1)
        ? withJson(base)
        : [path.join(base, "tsconfig.json")]),
    );
    if (path.dirname(d) === d) break;
  }
  return candidates;
}

/**
 * The module options in force for a chain of configs, nearest first (the file itself, then what it extends,
 * and so on): each option from the nearest config that sets it; `paths` keep the directory of the config that
 * set them. Undefined when none sets `baseUrl` or `paths`.
 */
export function mergeTsconfigs(chain: readonly ParsedTsconfig[]): TsconfigPaths | undefined {
  const withBase = chain.find((c) => c.baseUrl !== undefined);
  const withPaths = chain.find((c) => c.paths !== undefined);
  if (!withBase && !withPaths) return undefined;
  return {
    dir: (withPaths ?? withBase)!.dir,
    ...(withBase?.baseUrl === undefined ? {} : { baseUrl: withBase.baseUrl }),
    ...(withPaths?.paths === undefined ? {} : { paths: withPaths.paths }),
  };
}
