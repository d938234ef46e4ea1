import { posix as path } from "node:path";
import type { PackageManifest, WorkspacePackage } from "../types.js";
import { bestStarMatch } from "./star-pattern.js";

/**
 * Monorepo packages, so that `import { x } from "@scope/pkg"` in one package of a workspace reaches the other
 * package's source: which directories are the workspace's packages (pnpm's `pnpm-workspace.yaml`, npm's and Yarn's
 * `workspaces`, Lerna's `packages`), and which files of a package a specifier names (its `exports`, else `types`,
 * `module`, `main`), mapped from the build output back to the source that compiles to it. Pure; the directories
 * are listed and the manifests read by `ProjectEnv`.
 */

/** The manifest of a `package.json`'s text, or undefined when it is not a JSON object. */
export function parseManifest(text: string): PackageManifest | undefined {
  const value = jsonObject(text);
  if (!value) return undefined;
  const manifest: Record<string, unknown> = {};
  for (const key of ["name", "main", "module", "types", "typings", "source"] as const) {
    if (typeof value[key] === "string" && value[key] !== "") manifest[key] = value[key];
  }
  if (value.exports !== undefined) manifest.exports = value.exports;
  return manifest as PackageManifest;
}

/** npm's and Yarn's `workspaces` (a list, or `{ packages }`) of a root `package.json`; undefined without them. */
export function manifestWorkspaces(text: string): string[] | undefined {
  const value = jsonObject(text);
  return strings(isRecord(value?.workspaces) ? value.workspaces.packages : value?.workspaces);
}

/** Lerna's `packages` of a `lerna.json`; undefined without them. */
export function lernaPackages(text: string): string[] | undefined {
  return strings(jsonObject(text)?.packages);
}

/**
 * The `packages` list of a `pnpm-workspace.yaml`: a block list (`- "packages/*"`) or a flow list
 * (`packages: [a, b]`), quoted or not. Only this key is read, so a YAML library is not loaded for it; other keys
 * (`catalog`, `onlyBuiltDependencies`) are skipped.
 */
export function pnpmWorkspacePackages(text: string): string[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => /^packages\s*:/.test(line));
  if (start === -1) return [];
  const unquote = (item: string) => item.trim().replace(/^(["'])(.*)\1$/, "$2");
  const inline = lines[start]!.replace(/^packages\s*:\s*/, "").replace(/\s+#.*$/, "");
  if (inline.startsWith("[")) {
    return inline
      .replace(/^\[|\]$/g, "")
      .split(",")
      .map(unquote)
      .filter((item) => item !== "");
  }
  const found: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const item = /^\s+-\s+(.*?)\s*(#.*)?$/.exec(line) ?? /^-\s+(.*?)\s*(#.*)?$/.exec(line);
    if (!item) break;
    const value = unquote(item[1]!);
    if (value !== "") found.push(value);
  }
  return found;
}

/** A workspace glob cut into directory segments; `!` patterns exclude. */
export interface PackagePattern {
  readonly exclude: boolean;
  /** Segments: literal names, `*`-patterns (one directory level), `**` (any number of levels). */
  readonly segments: readonly string[];
}

/** Workspace globs as patterns: `./` and trailing `/` dropped, `..` and absolute globs ignored (outside the root). */
export function packagePatterns(globs: readonly string[]): PackagePattern[] {
  const patterns: PackagePattern[] = [];
  for (const glob of globs) {
    const exclude = glob.startsWith("!");
    const segments = (exclude ? glob.slice(1) : glob)
      .split("/")
      .filter((segment) => segment !== "" && segment !== ".");
    if (segments.length === 0 || glob.startsWith("/") || segments.includes("..")) continue;
    patterns.push({ exclude, segments });
  }
  return patterns;
}

const segmentRegexes = new Map<string, RegExp>();

/** Whether a directory name matches one glob segment (`*` any characters, `?` one). */
export function matchesSegment(segment: string, name: string): boolean {
  if (!/[*?]/.test(segment)) return segment === name;
  let regex = segmentRegexes.get(segment);
  if (!regex) {
    const source = segment
      .split("")
      .map((c) => (c === "*" ? "[^/]*" : c === "?" ? "[^/]" : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("");
    regex = new RegExp(`^${source}$`);
    segmentRegexes.set(segment, regex);
  }
  // Like shells and pnpm, `*` does not match names that start with a dot.
  return !(name.startsWith(".") && !segment.startsWith(".")) && regex.test(name);
}

/** Whether a root-relative directory path (`/`-separated) matches a pattern's segments. */
export function matchesPattern(segments: readonly string[], parts: readonly string[]): boolean {
  if (segments.length === 0) return parts.length === 0;
  const [first, ...rest] = segments;
  if (first === "**") {
    for (let skip = 0; skip <= parts.length; skip++) {
      if (matchesPattern(rest, parts.slice(skip))) return true;
    }
    return false;
  }
  return parts.length > 0 && matchesSegment(first!, parts[0]!) && matchesPattern(rest, parts.slice(1));
}

/** A bare specifier's package name and subpath: `@a/b/c` → `@a/b`, `./c`; `lodash` → `lodash`, `.`. */
export function splitPackageSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  const parts = specifier.split("/");
  const count = specifier.startsWith("@") ? 2 : 1;
  if (
    parts.length < count ||
    parts.slice(0, count).some((part) => part === "" || part === "." || part === "..")
  )
    return undefined;
  const rest = parts.slice(count).join("/");
  return { name: parts.slice(0, count).join("/"), subpath: rest === "" ? "." : `./${rest}` };
}

/** Conditions read from `exports`, source-like first: what an editor wants to show is the code, not a bundle. */
const CONDITIONS = ["source", "types", "typescript", "import", "module", "node", "require", "default"];

/** The targets of one `exports` value (a path, conditions, or a list of fallbacks), `*` replaced by `star`. */
function exportTargets(value: unknown, star: string | undefined, depth = 0): string[] {
  if (depth > 8) return [];
  if (typeof value === "string") return [star === undefined ? value : value.replaceAll("*", star)];
  if (Array.isArray(value)) return value.flatMap((item) => exportTargets(item, star, depth + 1));
  if (!isRecord(value)) return [];
  const targets: string[] = [];
  for (const condition of CONDITIONS) {
    if (condition in value) targets.push(...exportTargets(value[condition], star, depth + 1));
  }
  // Conditions of one's own (`development`, `browser`, `worker`…) after the known ones.
  for (const [key, nested] of Object.entries(value)) {
    if (!CONDITIONS.includes(key) && !key.startsWith("."))
      targets.push(...exportTargets(nested, star, depth + 1));
  }
  return targets;
}

/** What `exports` maps a subpath to (exact, else the longest `*` pattern); undefined when it does not say. */
function exportsFor(exports: unknown, subpath: string): string[] | undefined {
  if (exports === undefined || exports === null) return undefined;
  const subpaths =
    isRecord(exports) && Object.keys(exports).some((key) => key.startsWith(".")) ? exports : { ".": exports }; // a path or conditions alone: the package's main entry
  if (subpath in subpaths) return exportTargets(subpaths[subpath], undefined);
  const best = bestStarMatch(Object.entries(subpaths), subpath);
  return best ? exportTargets(best.value, best.matched) : [];
}

/** Build output directories whose files usually compile from `src/`. */
const OUTPUT_DIRS = new Set(["dist", "lib", "build", "out", "esm", "cjs", "types", "dts"]);
/** Extensions of built files, dropped so that the resolver tries each source extension. */
const BUILT_EXTENSION = /(\.d)?\.(m|c)?(j|t)sx?$/;

/**
 * The files a specifier may name inside a workspace package, most likely first, absolute and without extension
 * where the source's is unknown (the language's resolver tries each). A built path (`./dist/usage.d.ts`) comes
 * after the source it compiles from (`src/usage`), so a package whose build output is ignored (as it usually is)
 * still resolves; then `src/index` and `index` for the package itself, or `src/<subpath>` and `<subpath>` for a
 * subpath `exports` does not name.
 */
export function entryCandidates(pkg: WorkspacePackage, subpath: string): string[] {
  const { manifest, dir } = pkg;
  const exported = exportsFor(manifest.exports, subpath);
  // With `exports`, only what it names can be imported (Node refuses the rest).
  const declared = exported !== undefined;
  const targets = [...(exported ?? [])];
  if (subpath === "." && !declared) {
    for (const field of [manifest.source, manifest.types, manifest.typings, manifest.module, manifest.main]) {
      if (field !== undefined) targets.push(field);
    }
  }
  const found: string[] = [];
  for (const target of targets) {
    if (!target.startsWith("./") && !/^[^./][^:]*$/.test(target)) continue; // not inside the package
    const file = path.normalize(path.join(dir, target));
    if (!file.startsWith(`${dir}/`)) continue;
    const relative = file.slice(dir.length + 1);
    const stem = relative.replace(BUILT_EXTENSION, "");
    const [top, ...rest] = stem.split("/");
    if (top !== undefined && OUTPUT_DIRS.has(top) && rest.length > 0)
      found.push(path.join(dir, "src", ...rest));
    found.push(path.join(dir, stem), file);
  }
  if (subpath === ".") found.push(path.join(dir, "src", "index"), path.join(dir, "index"));
  else if (!declared) found.push(path.join(dir, "src", subpath), path.join(dir, subpath));
  return [...new Set(found)];
}

/** A JSON text's object, or undefined when it is not valid JSON or not an object. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The strings of a list; undefined when it is not a list. */
function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
