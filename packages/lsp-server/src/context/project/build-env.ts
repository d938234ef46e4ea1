import { join } from "node:path";
import { contains } from "../../workspace/workspace.js";
import { compileCommandsIncludeDirs, compileFlagsIncludeDirs } from "../resolve/c-family.js";
import { gradleSourceRoots, mavenSourceRoots, sbtSourceRoots } from "../resolve/jvm.js";
import { duneLibraryNames } from "../resolve/ocaml.js";
import { composerPsr4 } from "../resolve/php.js";
import { gemspecRequirePaths } from "../resolve/ruby.js";
import { swiftPackageTargets } from "../resolve/swift.js";
import type { Family, ResolveEnv } from "../types.js";

/**
 * Which project files a family's resolution reads, so that a file of one language never pays for another's: the
 * groups share a cache entry per directory.
 */
export type Group = "base" | "c" | "jvm" | "php" | "ruby" | "swift" | "elixir" | "ocaml";
const GROUP: Readonly<Partial<Record<Family, Group>>> = {
  c: "c",
  cpp: "c",
  java: "jvm",
  kotlin: "jvm",
  scala: "jvm",
  php: "php",
  ruby: "ruby",
  swift: "swift",
  elixir: "elixir",
  ocaml: "ocaml",
};
/** The group of a family's build files; `base` (TypeScript, Go, Rust and the monorepo's files alone) for the rest. */
export function groupOf(family: Family | undefined): Group {
  return (family && GROUP[family]) ?? "base";
}

/** Where a build puts its compilation database when it is not linked to the root (read only if not ignored). */
const COMPILE_DB_DIRS = ["", "build"] as const;
/** Dune files are looked for at most this deep under `dune-project`. */
const MAX_DUNE_DEPTH = 4;

/** How the build files are read: under the context's file rules, each file once per environment computed. */
export interface BuildFiles {
  /** A workspace file's text; undefined when absent or not to be read. */
  read(path: string): Promise<string | undefined>;
  /** A directory's regular files, by name (a gemspec is named after its gem). */
  list(dir: string): Promise<readonly string[]>;
  /** A directory's subdirectories the rules let in, by name. */
  subdirectories(dir: string): Promise<readonly string[]>;
}

/**
 * An environment completed with what a family's build says (the nearest such file from the file's directory up to
 * its workspace folder, `levels`, first): C's compilation database or flags (include directories), Maven, Gradle and
 * sbt (source roots, from every level), Composer (PSR-4), a gemspec or Gemfile (the load path), `Package.swift`
 * (targets), `mix.exs` (the project), dune (libraries).
 */
export async function buildEnv(
  group: Group,
  levels: readonly string[],
  env: ResolveEnv,
  io: BuildFiles,
): Promise<ResolveEnv> {
  switch (group) {
    case "c": {
      for (const at of levels) {
        for (const sub of COMPILE_DB_DIRS) {
          const dbDir = join(at, sub);
          const db = await io.read(join(dbDir, "compile_commands.json"));
          const flags = db === undefined ? await io.read(join(dbDir, "compile_flags.txt")) : undefined;
          const dirs =
            db !== undefined
              ? compileCommandsIncludeDirs(db, dbDir)
              : flags !== undefined
                ? compileFlagsIncludeDirs(flags, dbDir)
                : undefined;
          // Only folders of the workspace: a system include directory is never read.
          if (dirs) return { ...env, includeDirs: dirs.filter((d) => contains(env.root, d)) };
        }
      }
      return env;
    }
    case "jvm": {
      const roots: string[] = [];
      for (const at of levels) {
        const pom = await io.read(join(at, "pom.xml"));
        if (pom !== undefined) roots.push(...mavenSourceRoots(pom, at));
        for (const name of ["build.gradle.kts", "build.gradle"]) {
          const gradle = await io.read(join(at, name));
          if (gradle !== undefined) roots.push(...gradleSourceRoots(gradle, at));
        }
        const sbt = await io.read(join(at, "build.sbt"));
        if (sbt !== undefined) roots.push(...sbtSourceRoots(sbt, at));
      }
      return roots.length > 0 ? { ...env, sourceRoots: [...new Set(roots)] } : env;
    }
    case "php": {
      for (const at of levels) {
        const composer = await io.read(join(at, "composer.json"));
        if (composer !== undefined) return { ...env, psr4: composerPsr4(composer, at) };
      }
      return env;
    }
    case "ruby": {
      for (const at of levels) {
        const names = await io.list(at);
        const gemspec = names.find((name) => name.endsWith(".gemspec"));
        const text = gemspec === undefined ? undefined : await io.read(join(at, gemspec));
        if (text !== undefined) return { ...env, rubyLoadPath: gemspecRequirePaths(text, at) };
        if (names.includes("Gemfile")) return { ...env, rubyLoadPath: [join(at, "lib")] };
      }
      return env;
    }
    case "swift": {
      for (const at of levels) {
        const manifest = await io.read(join(at, "Package.swift"));
        if (manifest !== undefined) return { ...env, swiftTargets: swiftPackageTargets(manifest, at) };
      }
      return env;
    }
    case "elixir": {
      for (const at of levels)
        if ((await io.read(join(at, "mix.exs"))) !== undefined) return { ...env, mixDir: at };
      return env;
    }
    case "ocaml": {
      for (const at of levels) {
        if ((await io.read(join(at, "dune-project"))) === undefined) continue;
        const libraries = new Map<string, string>();
        const visit = async (d: string, depth: number): Promise<void> => {
          const dune = await io.read(join(d, "dune"));
          if (dune !== undefined)
            for (const name of duneLibraryNames(dune)) if (!libraries.has(name)) libraries.set(name, d);
          if (depth >= MAX_DUNE_DEPTH) return;
          for (const name of await io.subdirectories(d))
            if (name !== "_build") await visit(join(d, name), depth + 1);
        };
        await visit(at, 0);
        return libraries.size > 0 ? { ...env, duneLibraries: libraries } : env;
      }
      return env;
    }
    default:
      return env;
  }
}
