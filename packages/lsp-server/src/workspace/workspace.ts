import { isAbsolute, parse, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A workspace folder as LSP gives it. */
export interface WorkspaceFolderParam {
  readonly uri: string;
  readonly name?: string;
}

/** A workspace folder as the server keeps it. */
export interface Folder {
  /** Absolute path, without a trailing separator. */
  readonly path: string;
  readonly name: string;
  /** The folder's URI as the client gave it (usage figures are kept per folder under this name). */
  readonly uri: string;
}

/** What `initialize` says about the workspace. */
export interface InitializeFolders {
  readonly workspaceFolders?: readonly WorkspaceFolderParam[] | null;
  readonly rootUri?: string | null;
  readonly rootPath?: string | null;
}

/**
 * The workspace folders an `initialize` names: `workspaceFolders` when it lists any, else `rootUri`, else the
 * deprecated `rootPath` (Helix started outside any project sends only that: its working directory), unless that is
 * the filesystem root or `home`, which are no project.
 */
export function initialFolders(params: InitializeFolders, home: string): WorkspaceFolderParam[] {
  if (params.workspaceFolders && params.workspaceFolders.length > 0) return [...params.workspaceFolders];
  if (params.rootUri) return [{ uri: params.rootUri, name: "" }];
  if (!params.rootPath || !isAbsolute(params.rootPath)) return [];
  const path = resolve(params.rootPath);
  if (path === parse(path).root || path === resolve(home)) return [];
  return [{ uri: pathToUri(path), name: "" }];
}

/** The paths of the URIs last asked ({@link uriToPath} is pure, and each request asks of the same open documents). */
const paths = new Map<string, string | undefined>();
const MAX_PATHS = 1024;

/** The absolute path of a `file:` URI, or undefined for other schemes and malformed URIs. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  if (paths.has(uri)) return paths.get(uri);
  let path: string | undefined;
  try {
    path = trimSeparator(fileURLToPath(uri));
  } catch {
    path = undefined;
  }
  if (paths.size >= MAX_PATHS) paths.clear();
  paths.set(uri, path);
  return path;
}

/** The `file:` URI of an absolute path. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

function trimSeparator(path: string): string {
  return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
}

/**
 * The workspace folders, and their one owner: the only places files are read from, what paths in prompts are
 * relative to, and what usage is counted per. Set from `initialize` (`workspaceFolders`, else `rootUri`) and changed
 * by `workspace/didChangeWorkspaceFolders`.
 */
export class Workspace {
  #folders: Folder[] = [];
  readonly #listeners = new Set<() => void>();

  /** Call `listener` after each change of the folders; returns a function that stops it. */
  onDidChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The folders, innermost first when they nest. */
  get folders(): readonly Folder[] {
    return this.#folders;
  }

  /** Replace the folders (at `initialize`). Non-`file:` folders are ignored. */
  set(folders: readonly WorkspaceFolderParam[]): void {
    this.#folders = [];
    this.change(folders, []);
  }

  /** Add and remove folders (`workspace/didChangeWorkspaceFolders`). */
  change(added: readonly WorkspaceFolderParam[], removed: readonly WorkspaceFolderParam[]): void {
    const gone = new Set(removed.map((folder) => uriToPath(folder.uri)));
    const next = this.#folders.filter((folder) => !gone.has(folder.path));
    for (const folder of added) {
      const path = uriToPath(folder.uri);
      if (path === undefined || next.some((known) => known.path === path)) continue;
      const name = folder.name || path.slice(path.lastIndexOf(sep) + 1) || path;
      next.push({ path, name, uri: folder.uri });
    }
    // Innermost first: a path inside nested folders belongs to the deepest one.
    this.#folders = next.sort((a, b) => b.path.length - a.path.length);
    for (const listener of this.#listeners) listener();
  }

  /** The folder holding an absolute path (the innermost one), or undefined when it is outside them all. */
  folderOf(path: string): Folder | undefined {
    return this.#folders.find((folder) => contains(folder.path, path));
  }

  /**
   * The URI (as the client gave it) of the folder a document belongs to: the innermost one holding it; undefined
   * for a document outside every folder or not on disk.
   */
  scopeOf(uri: string): string | undefined {
    const path = uriToPath(uri);
    return path === undefined ? undefined : this.folderOf(path)?.uri;
  }

  /**
   * How a path is named in prompts: relative to its folder with `/` separators, prefixed with the folder's name when
   * there are several folders; undefined outside the workspace.
   */
  relative(path: string): string | undefined {
    const folder = this.folderOf(path);
    if (!folder) return undefined;
    const rel =
      plain(folder.path) && plain(path)
        ? path.slice(inside(folder.path).length)
        : slowRelative(folder.path, path);
    return this.#folders.length > 1 ? `${folder.name}/${rel}` : rel;
  }
}

/** Whether `path` is `dir` or lies inside it (both absolute and normalised). */
export function contains(dir: string, path: string): boolean {
  if (!isAbsolute(path)) return false;
  // Asked for every file a choice reads: plain POSIX paths are compared as strings (`path.relative` resolves both).
  if (plain(dir) && plain(path)) return path === dir || path.startsWith(inside(dir));
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A doubled separator, or a `.` or `..` segment. */
const NOT_PLAIN = /\/\/|\/\.\.?(?:\/|$)/;

/** A POSIX absolute path without `.` or `..` segments or doubled separators (on Windows, none: case folds). */
function plain(path: string): boolean {
  return sep === "/" && path.startsWith("/") && !NOT_PLAIN.test(path);
}

/** A directory's path with one separator at its end: the prefix of what it holds. */
function inside(dir: string): string {
  return dir.endsWith("/") ? dir : `${dir}/`;
}

/** `relative`, with `/` separators. */
function slowRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join("/");
}
