// `@infill/lsp-server/status`: the schema of what `workspace/executeCommand` `infill.status` answers, for tools
// that ask a running server for its usage figures (a status line, a dashboard). Bundled with its copy of zod, so
// the package keeps no dependencies; the declarations spell the types out (build/status-declarations.mjs).
export { type Figures, FiguresSchema, type Status, StatusSchema } from "./stats/status-schema.js";
