import { contains, uriToPath } from "../context/workspace.js";

/**
 * The workspace folder (its URI, as the client gave it) a document belongs to: the innermost folder holding it;
 * undefined for a document outside every folder or not on disk.
 */
export function workspaceOf(folders: ReadonlyArray<{ uri: string }>, uri: string): string | undefined {
  const path = uriToPath(uri);
  if (path === undefined) return undefined;
  let best: { uri: string; length: number } | undefined;
  for (const folder of folders) {
    const dir = uriToPath(folder.uri);
    if (dir !== undefined && contains(dir, path) && dir.length > (best?.length ?? -1)) {
      best = { uri: folder.uri, length: dir.length };
    }
  }
  return best?.uri;
}
