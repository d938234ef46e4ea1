// From "the type is declared at file F, line L" to what the block shows of it.
import { uriToPath } from "../../workspace/workspace.js";
import { innermostAt } from "../declarations/outline-lookup.js";
import type { ContextSnippet, Declaration, ModuleHost } from "../types.js";
import type { LocatedType } from "./editor-types.js";

/**
 * What the block shows of the type declared at `line` (0-based, the line of its name) of the file at `path`
 * (absolute), read through `host` (the file rules apply: an excluded file, or one outside the workspace, gives
 * none), given the member name typed so far after the receiver. Undefined when nothing is declared there.
 */
export type TypeAtLine = (
  host: ModuleHost,
  path: string,
  line: number,
  member: string,
) => Promise<Declaration | undefined>;

/**
 * The declaration the file's outline holds at that line, as the other declarations of the block show it (the
 * members of a small class with their bodies elided). The member outline of `context/typing/` (header, ranked
 * member signatures, bases) takes its place once it is there.
 */
export const declarationAtLine: TypeAtLine = async (host, path, line) => {
  const module = await host.module(path);
  return module ? innermostAt(module, line) : undefined;
};

/**
 * What the block shows of the types the editor located, as snippets under their workspace-relative paths
 * (`relative`: undefined outside the workspace, which gives none), read through `host` (the file rules apply).
 */
export async function locatedTypeSnippets(
  types: readonly LocatedType[],
  host: ModuleHost,
  relative: (path: string) => string | undefined,
  outline: TypeAtLine = declarationAtLine,
): Promise<ContextSnippet[]> {
  const snippets: ContextSnippet[] = [];
  for (const { uri, line, member } of types) {
    const path = uriToPath(uri);
    const rel = path === undefined ? undefined : relative(path);
    if (path === undefined || rel === undefined) continue;
    const declaration = await outline(host, path, line, member);
    if (!declaration) continue;
    const { startLine, endLine, snippet: text } = declaration;
    snippets.push({ path: rel, startLine, endLine, text, kind: "declaration" });
  }
  return snippets;
}
