import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import { contains } from "../../workspace/workspace.js";
import { BUILT_IN_EXCLUDES } from "./file-policy.js";

/** Reads a small text file; undefined when it does not exist or cannot be read. */
export type ReadText = (path: string) => Promise<string | undefined>;

/**
 * `.gitignore` (every level from the workspace folder down to the file), `.git/info/exclude`, the built-in secret
 * patterns and the user's `context.exclude`, with git's semantics as far as `ignore` (node-ignore, the library
 * eslint and prettier use) gives them: patterns are relative to the folder holding their file, a deeper file may
 * re-include (`!pattern`) what a shallower one excluded, and nothing under an excluded directory comes back.
 * Ignore files are read once and kept until `invalidate` (the server calls it when a watched `.gitignore` changes).
 */
export class IgnoreRules {
  /** Parsed ignore file by directory; undefined when the directory has none. */
  readonly #byDir = new Map<string, Promise<Ignore | undefined>>();
  #extra: { key: string; rules: Ignore } = { key: "", rules: ignore().add(BUILT_IN_EXCLUDES) };

  constructor(private readonly readText: ReadText) {}

  /** Whether `path` (absolute, inside `folder`) may not be read. */
  async ignored(folder: string, path: string, exclude: readonly string[]): Promise<boolean> {
    if (path === folder || !contains(folder, path)) return true;
    const rel = relative(folder, path);
    const parts = rel.split(sep);
    const posix = parts.join("/");
    if (this.#rules(exclude).ignores(posix)) return true;
    let ignored = false;
    // Root first: `.git/info/exclude` and the folder's `.gitignore`, then each directory on the way down.
    const levels: Array<{ dir: string; file: string }> = [
      { dir: folder, file: join(folder, ".git", "info", "exclude") },
      { dir: folder, file: join(folder, ".gitignore") },
    ];
    let dir = folder;
    for (const part of parts.slice(0, -1)) {
      dir = join(dir, part);
      levels.push({ dir, file: join(dir, ".gitignore") });
    }
    for (const level of levels) {
      const rules = await this.#load(level.file);
      if (!rules) continue;
      const result = test(rules, relative(level.dir, path).split(sep).join("/"));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /**
   * Whether a directory (absolute, inside `folder`) is excluded: git's directory patterns (`dist/`) match a path
   * under it, not its bare name, so a name no pattern would single out is tested inside it.
   */
  ignoredDir(folder: string, dir: string, exclude: readonly string[]): Promise<boolean> {
    return this.ignored(folder, join(dir, DIR_PROBE), exclude);
  }

  /**
   * Whether a file name alone is excluded by the built-in secret patterns or `exclude`: for a file outside every
   * workspace folder, which no `.gitignore` covers.
   */
  nameExcluded(name: string, exclude: readonly string[]): boolean {
    return test(this.#rules(exclude), name).ignored;
  }

  /** Forget a changed ignore file (or every one, without an argument). */
  invalidate(file?: string): void {
    if (file === undefined) this.#byDir.clear();
    else this.#byDir.delete(file);
  }

  /** Whether a path names an ignore file this class reads. */
  static isIgnoreFile(path: string): boolean {
    return path.endsWith(`${sep}.gitignore`) || path.endsWith(join(".git", "info", "exclude"));
  }

  #rules(exclude: readonly string[]): Ignore {
    const key = exclude.join("\n");
    if (this.#extra.key !== key) {
      const rules = ignore().add(BUILT_IN_EXCLUDES);
      for (const pattern of exclude) rules.add(pattern);
      this.#extra = { key, rules };
    }
    return this.#extra.rules;
  }

  #load(file: string): Promise<Ignore | undefined> {
    let rules = this.#byDir.get(file);
    if (!rules) {
      rules = this.readText(file).then(
        (text) => (text === undefined ? undefined : ignore().add(text)),
        () => undefined,
      );
      this.#byDir.set(file, rules);
    }
    return rules;
  }
}

/** A file name inside a directory, for {@link IgnoreRules.ignoredDir}; no ignore file means it. */
const DIR_PROBE = "__infill_directory_probe__";

/** node-ignore throws on paths it considers invalid (e.g. with `..`); such a path is simply not matched. */
function test(rules: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  try {
    return rules.test(path);
  } catch {
    return { ignored: false, unignored: false };
  }
}
