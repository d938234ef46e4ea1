// The server's layers, checked in CI (`pnpm lint`): each layer imports only the layers below it.
//
//   protocol             the LSP connection and InfillServer: forwards requests to the features
//   stats                usage, acceptance and cost figures
//   completion next-edit the features, peers: completion's request pipeline (pacing, shared streams, memory, the FIM
//                        request, post-processing) and next-edit suggestions (edit history, region, engine)
//   context              repository context: files, syntax, resolution, the block
//   documents upstream settings workspace    the open buffers, the provider, the settings, the workspace folders
//   log                  leveled log lines
//
// bin.ts, help.ts and status.ts are the entry points; nothing imports them but cli.ts, which bin.ts loads.
const LAYERS = [
  "protocol",
  "stats",
  "completion|next-edit",
  "context",
  "documents|upstream|settings|workspace",
  "log",
];

const dir = (names) => `^src/(${names})/`;

// Inside context/, the folders by concept run one way too, top to bottom. The facade (RepositoryContext and its
// loader) and the base (the shared types, the language table, a document's lines) are files at context/'s root.
//
//   facade        repository-context.ts, context-files.ts, context-loader.ts, syntax-layer.ts: what the server
//                 talks to
//   block         the block, its cache and chooser, the declaration memo
//   typing        what type a receiver has (per-language rule tables), and its member outline
//   similar       similar code of open documents, recent edits
//   symbols       the workspace symbol index
//   declarations  what a reference reaches (findDeclarations), the files one call reads, a module's exports
//   modules       the modules of open documents and files: parsing with the family's support, the current imports
//   lang          one parser or grammar query per family
//   syntax        tree-sitter: runtime, grammars, outlines, open trees
//   project       project and build files: tsconfig, workspace packages, include dirs, source roots
//   resolve       where an import leads, per family (and the build files' fields it reads)
//   scan          the hand-written parsers' scanning: masked text, statements, references, snippets, outlines
//   files         the source cache, ignore rules, the file policy
//   base          types.ts, languages.ts, document-lines.ts
const CONTEXT = [
  "(repository-context|context-files|context-loader|syntax-layer)\\.ts$",
  "block/",
  "typing/",
  "similar/",
  "symbols/",
  "declarations/",
  "modules/",
  "lang/",
  "syntax/",
  "project/",
  "resolve/",
  "scan/",
  "files/",
  "(types|languages|document-lines)\\.ts$",
];
const inContext = (names) => `^src/context/(${names.join("|")})`;
const contextNames = ["facade", ...CONTEXT.slice(1, -1).map((name) => name.slice(0, -1)), "base"];

/** Each folder of context/ may not import one above it. */
const contextUpward = CONTEXT.slice(1).map((layer, i) => ({
  name: `context-no-upward-from-${contextNames[i + 1]}`,
  comment: `context/${contextNames[i + 1]} is below ${contextNames.slice(0, i + 1).join(", ")}: it may not import them`,
  severity: "error",
  from: { path: inContext([layer]) },
  to: { path: inContext(CONTEXT.slice(0, i + 1)) },
}));

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
    ...contextUpward,
    {
      name: "context-files-have-a-layer",
      comment:
        "Every file of context/ is in one of its layers (a folder by concept, the facade or the base).",
      severity: "error",
      from: { path: "^src/context/", pathNot: inContext(CONTEXT) },
      to: {},
    },
    {
      name: "no-entry-imports",
      comment:
        "The entry points (bin, help, status) are imported by nobody inside src but bin and the cli it loads.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(bin|cli)\\.ts$" },
      to: { path: "^src/(bin|help|status)\\.ts$" },
    },
    {
      name: "features-apart",
      comment:
        "completion and next-edit are peers: neither imports the other (what one must know of the other is passed in by protocol/).",
      severity: "error",
      from: { path: "^src/(completion|next-edit)/" },
      // $1: the importing folder, which may import itself.
      to: { path: "^src/(completion|next-edit)/", pathNot: "^src/$1/" },
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
