// The server's layers, checked in CI (`pnpm lint`): each layer imports only the layers below it.
//
//   protocol             the LSP connection and InfillServer: forwards requests to the features
//   stats                usage, acceptance and cost figures
//   completion           the request pipeline: pacing, shared streams, memory, the FIM request, post-processing
//   context              repository context: files, syntax, resolution, the block
//   documents upstream settings workspace    the open buffers, the provider, the settings, the workspace folders
//   log                  leveled log lines
//
// bin.ts, help.ts and status.ts are the entry points; nothing imports them.
const LAYERS = ["protocol", "stats", "completion", "context", "documents|upstream|settings|workspace", "log"];

const dir = (names) => `^src/(${names})/`;

/** Each layer may not import a layer above it. */
const upward = LAYERS.slice(1).map((layer, i) => ({
  name: `no-upward-from-${layer.split("|")[0]}`,
  comment: `${layer} is below ${LAYERS.slice(0, i + 1).join(", ")}: it may not import them`,
  severity: "error",
  from: { path: dir(layer) },
  to: { path: dir(LAYERS.slice(0, i + 1).join("|")) },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import circle: two modules that need each other are one concept, or one needs an interface.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: "no-entry-imports",
      comment: "The entry points (bin, help, status) are imported by nobody inside src.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/bin\\.ts$" },
      to: { path: "^src/(bin|help|status)\\.ts$" },
    },
    {
      name: "lower-layers-apart",
      comment: "documents, upstream, settings and workspace are peers: only log is below them.",
      severity: "error",
      from: { path: "^src/(documents|workspace)/" },
      to: { path: "^src/(upstream|settings)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
