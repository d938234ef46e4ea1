import type { Declaration } from "../types.js";

/** What a reference reached: the declarations, each with the absolute path of its file. */
export type Reached = ReadonlyArray<readonly [string, Declaration]>;

/** The view of one document's memo that {@link findDeclarations} reads and fills. */
export interface ReferenceMemo {
  /**
   * What the reference (by its chain, `a.b.c`) reached at an earlier choice, and what it read to get there, if
   * nothing of that changed since.
   */
  get(chain: string): { reached: Reached; read: ReadonlySet<string> } | undefined;
  /** Remember what a reference reached, and the files and directories read to find it (not the document's own). */
  set(chain: string, reached: Reached, read: ReadonlySet<string>): void;
}
