// The tree-sitter replacement of the TypeScript parser as the `typescript` support, for the server that
// `INFILL_TS_PARSER=tree-sitter node build.mjs` builds (the eval's comparison). The TSX grammar reads every file:
// one support has one grammar, and TSX only misreads the old `<T>value` casts.
import { ALTERNATIVES } from "./syntax-alternatives.js";

/** The tree-sitter TypeScript support. */
export const typescript = ALTERNATIVES[0]!.forFile!("x.tsx");
