// C#: `using A.B;` names a namespace, which any file of the project may add to, whatever its folder. No file
// follows from the name: C# names are found through the workspace symbol index (`symbol-index.ts`), restricted to
// the family, nearest first. Pure.
import type { ResolveEnv } from "../types.js";

/** Always `[]`: a namespace is not a file (the symbol index answers C# names). */
export function csharpCandidates(_specifier: string, _fromFile: string, _env: ResolveEnv): string[] {
  return [];
}
