// Java, Kotlin and Scala: packages are folders under source roots. Import resolution, the same package's names,
// and the source roots of Maven, Gradle and sbt builds. Pure.
import { posix as path } from "node:path";
import type { Family, ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

/** JVM source extensions, the importing file's own language first (a Java file may import a Kotlin class). */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  java: [".java", ".kt", ".scala"],
  kotlin: [".kt", ".java", ".scala"],
  scala: [".scala", ".java", ".kt"],
};
const ALL = new Set([".java", ".kt", ".scala"]);
const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

function extensionsOf(fromFile: string): readonly string[] {
  const ext = path.extname(fromFile);
  return ext === ".kt" || ext === ".kts"
    ? EXTENSIONS.kotlin!
    : ext === ".scala"
      ? EXTENSIONS.scala!
      : EXTENSIONS.java!;
}

function segmentsOf(name: string): string[] | undefined {
  const segments = name.split(".");
  return segments.length > 0 && segments.every((s) => IDENTIFIER.test(s)) ? segments : undefined;
}

/**
 * The files and package folders a JVM import names, most likely first: `com.x.Y` → `<root>/com/x/Y.java` (`.kt`,
 * `.scala`) under each source root, then `<root>/com/x/Y/…` as a folder (a wildcard's package `com.x`) and
 * `<root>/com/x/` (a Kotlin top-level function `com.x.f`, a nested class `com.x.Y.Inner` in `Y`'s package).
 */
export function jvmCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  const segments = segmentsOf(specifier);
  const roots = env.sourceRoots ?? [];
  if (!segments || roots.length === 0) return [];
  const exts = extensionsOf(fromFile);
  // Each root joined once (a file's imports each ask: `path.join` is most of the cost).
  const named = roots.map((root) => path.join(root, ...segments));
  const parents = segments.length > 1 ? roots.map((root) => path.join(root, ...segments.slice(0, -1))) : [];
  const out: string[] = [];
  for (const dir of [...named, ...parents]) for (const ext of exts) out.push(`${dir}${ext}`);
  for (const dir of [...named, ...parents]) out.push(`${dir}/`);
  return [...new Set(out)];
}

/** The source root a file's `package` line implies: its folder less the package's path, when they agree. */
export function packageRoot(file: string, pkg: string): string | undefined {
  const segments = segmentsOf(pkg);
  if (!segments) return undefined;
  const dir = path.dirname(file);
  const tail = `/${segments.join("/")}`;
  if (!dir.endsWith(tail)) return undefined;
  return dir.slice(0, dir.length - tail.length) || "/";
}

/** The environment with the importing file's own source root (from its `package` line) first. */
export function jvmEnvironment(from: ParsedModule, env: ResolveEnv): ResolveEnv {
  const pkg = from.outline.package;
  const root =
    pkg === undefined ? (env.sourceRoots ? undefined : path.dirname(from.path)) : packageRoot(from.path, pkg);
  if (root === undefined || env.sourceRoots?.includes(root)) return env;
  return { ...env, sourceRoots: [root, ...(env.sourceRoots ?? [])] };
}

/**
 * Where a class of the same package may be declared without import: `Name.java` (`.kt`, `.scala`) beside the file,
 * the same package under the other source roots (tests see main's package-private classes), then the package's
 * folder (Kotlin and Scala declare several classes or top-level functions per file).
 */
export function jvmImplicit(name: string, from: ParsedModule, env: ResolveEnv): ImplicitCandidate[] {
  if (!IDENTIFIER.test(name)) return [];
  const exts = extensionsOf(from.path);
  const dir = path.dirname(from.path);
  const pkg = from.outline.package;
  const segments = pkg === undefined ? [] : (segmentsOf(pkg) ?? []);
  const dirs = [dir];
  for (const root of env.sourceRoots ?? []) {
    if (pkg === undefined && root !== dir) continue;
    const other = path.join(root, ...segments);
    if (!dirs.includes(other)) dirs.push(other);
  }
  const out: ImplicitCandidate[] = [];
  for (const d of dirs) for (const ext of exts) out.push({ path: path.join(d, `${name}${ext}`) });
  out.push({ path: `${dir}/` });
  return out;
}

/** Whether a file of a package folder is a JVM source. */
export function jvmPackageFile(fileName: string): boolean {
  return ALL.has(path.extname(fileName));
}

/** Families resolved by this module (one index group: a Kotlin file may use a Java class). */
export const JVM_FAMILIES: readonly Family[] = ["java", "kotlin", "scala"];

const MAVEN_DEFAULTS = [
  "src/main/java",
  "src/main/kotlin",
  "src/main/scala",
  "src/test/java",
  "src/test/kotlin",
];
const GRADLE_DEFAULTS = [
  "src/main/java",
  "src/main/kotlin",
  "src/main/groovy",
  "src/test/java",
  "src/test/kotlin",
  "src/main/scala",
];
const SBT_DEFAULTS = ["src/main/scala", "src/main/java", "src/test/scala", "src/test/java"];

function absolute(dir: string, rel: string): string {
  return path.resolve(dir, rel.replace(/^\$\{(?:project\.)?basedir\}\/?/, "").trim() || ".");
}

/** Source roots of a `pom.xml`: `<sourceDirectory>`, `<testSourceDirectory>`, then Maven's defaults. */
export function mavenSourceRoots(text: string, dir: string): string[] {
  const configured: string[] = [];
  for (const match of text.matchAll(
    /<(?:test)?[sS]ourceDirectory>\s*([^<]+?)\s*<\/(?:test)?[sS]ourceDirectory>/g,
  ))
    configured.push(absolute(dir, match[1]!));
  return [...new Set([...configured, ...MAVEN_DEFAULTS.map((d) => path.join(dir, d))])];
}

/** Source roots of a `build.gradle(.kts)`: every `srcDir`/`srcDirs` string, then Gradle's defaults. */
export function gradleSourceRoots(text: string, dir: string): string[] {
  const configured: string[] = [];
  for (const line of text.matchAll(/\bsrcDirs?\b[^\n]*/g)) {
    for (const quoted of line[0].matchAll(/["']([^"'$\n]+)["']/g)) configured.push(absolute(dir, quoted[1]!));
  }
  return [...new Set([...configured, ...GRADLE_DEFAULTS.map((d) => path.join(dir, d))])];
}

/** Source roots of a `build.sbt`: `scalaSource`/`javaSource` set from `baseDirectory.value / "…"`, then sbt's defaults. */
export function sbtSourceRoots(text: string, dir: string): string[] {
  const configured: string[] = [];
  for (const match of text.matchAll(
    /\b(?:scala|java)Source\b[^\n]*?baseDirectory\.value((?:\s*\/\s*"[^"\n]+")+)/g,
  )) {
    const parts = [...match[1]!.matchAll(/"([^"\n]+)"/g)].map((m) => m[1]!);
    configured.push(path.resolve(dir, ...parts));
  }
  return [...new Set([...configured, ...SBT_DEFAULTS.map((d) => path.join(dir, d))])];
}
