// A document's imported files read and parsed ahead of its first completion.
import type { OpenDocument } from "../../documents/documents.js";
import type { SourceCache } from "../files/source-cache.js";
import type { ProjectEnv } from "../project/project-env.js";
import type { LanguageSupport, ParsedModule } from "../types.js";
import type { CurrentImports } from "./current-imports.js";

/** What {@link prefetchImports} reads through. */
export interface PrefetchParts {
  imports: CurrentImports;
  env: ProjectEnv;
  sources: SourceCache<ParsedModule>;
}

/**
 * Read and parse the files `doc` (at `path`) imports, the first candidate of each that exists, so that the first
 * completion does not pay for them. Rejects on trouble (the caller logs it).
 */
export async function prefetchImports(
  doc: OpenDocument,
  path: string,
  support: LanguageSupport,
  parts: PrefetchParts,
): Promise<void> {
  await support.ready?.();
  const { imports } = parts.imports.parse(doc, { line: 0, character: 0 }, support, path);
  const env = await parts.env.for(path, support.family);
  for (const statement of imports) {
    for (const candidate of support.candidates(statement.specifier, path, env)) {
      if (candidate.endsWith("/")) break;
      if (await parts.sources.load(candidate)) break;
    }
  }
}
