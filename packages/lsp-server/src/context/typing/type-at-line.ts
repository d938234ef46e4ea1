// From "the type is declared at file F, line L" to what the block shows of it.
import { uriToPath } from "../../workspace/workspace.js";
import { innermostAt } from "../declarations/outline-lookup.js";
import type { ContextSnippet, ModuleHost } from "../types.js";
import type { LocatedType } from "./editor-types.js";

/** A piece of what the block shows of a type: lines of a file (absolute path), and what kind of snippet they make. */
export interface TypeLines {
  readonly path: string;
  /** First and last line (0-based, inclusive) in that file. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly kind: ContextSnippet["kind"];
}

/**
 * What the block shows of the type declared at `line` (0-based, the line of its name) of the file at `path`
 * (absolute), read through `host` (the file rules apply: an excluded file, or one outside the workspace, gives
 * none), given the member name typed so far after the receiver: the type's lines, and maybe its bases' in other
 * files. Empty when nothing is declared there.
 */
export type TypeAtLine = (
  host: ModuleHost,
  path: string,
  line: number,
  member: string,
) => Promise<readonly TypeLines[]>;

/**
 * The declaration the file's outline holds at that line, as the other declarations of the block show it (the
 * members of a small class with their bodies elided): for a language typing/'s member outline has no rules for.
 */
export const declarationAtLine: TypeAtLine = async (host, path, line) => {
  const module = await host.module(path);
  const declaration = module && innermostAt(module, line);
  if (!declaration) return [];
  const { startLine, endLine, snippet: text } = declaration;
  return [{ path, startLine, endLine, text, kind: "declaration" }];
};

/**
 * What the block shows of the types the editor located, as snippets under their workspace-relative paths
 * (`relative`: undefined outside the workspace, which gives none), read through `host` with `atLine`.
 */
export async function locatedTypeSnippets(
  types: readonly LocatedType[],
  host: ModuleHost,
  relative: (path: string) => string | undefined,
  atLine: TypeAtLine = declarationAtLine,
): Promise<ContextSnippet[]> {
  const snippets: ContextSnippet[] = [];
  for (const { uri, line, member } of types) {
    const path = uriToPath(uri);
    if (path === undefined || relative(path) === undefined) continue;
    for (const lines of await atLine(host, path, line, member)) {
      const rel = relative(lines.path);
      if (rel === undefined) continue;
      const { startLine, endLine, text, kind } = lines;
      snippets.push({ path: rel, startLine, endLine, text, kind });
    }
  }
  return snippets;
}
