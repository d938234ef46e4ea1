import type { Family } from "./types.js";

/** LSP language ids of the families whose imports are resolved. */
const FAMILY_BY_LANGUAGE: Readonly<Record<string, Family>> = {
  typescript: "typescript",
  typescriptreact: "typescript",
  javascript: "typescript",
  javascriptreact: "typescript",
  python: "python",
  go: "go",
  rust: "rust",
  lua: "lua",
  c: "c",
  cpp: "cpp",
  // Emacs's Eglot names C++ after its mode (`c++-mode`); Helix calls C# `c-sharp`, Neovim `cs`.
  "c++": "cpp",
  cuda: "cpp",
  java: "java",
  csharp: "csharp",
  cs: "csharp",
  "c-sharp": "csharp",
  ruby: "ruby",
  php: "php",
  shellscript: "bash",
  sh: "bash",
  bash: "bash",
  kotlin: "kotlin",
  zig: "zig",
  swift: "swift",
  scala: "scala",
  elixir: "elixir",
};

/** File extensions of those families, for files that are not open (no language id). */
const FAMILY_BY_EXTENSION: Readonly<Record<string, Family>> = {
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".js": "typescript",
  ".jsx": "typescript",
  ".mjs": "typescript",
  ".cjs": "typescript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".lua": "lua",
  ".c": "c",
  // A header may be C or C++: C's by its extension, C++'s once its text shows it (`headerFamily` in `modules/parse-file.ts`).
  ".h": "c",
  ".cpp": "cpp",
  ".cc": "cpp",
  ".cxx": "cpp",
  ".c++": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".h++": "cpp",
  ".ipp": "cpp",
  ".tpp": "cpp",
  ".cu": "cpp",
  ".java": "java",
  ".cs": "csharp",
  ".rb": "ruby",
  ".rake": "ruby",
  ".gemspec": "ruby",
  ".php": "php",
  ".sh": "bash",
  ".bash": "bash",
  ".kt": "kotlin",
  ".kts": "kotlin",
  ".zig": "zig",
  ".swift": "swift",
  ".scala": "scala",
  ".sc": "scala",
  ".ex": "elixir",
  ".exs": "elixir",
};

/**
 * The families outlined with a tree-sitter grammar (`lang/index.ts`'s `SYNTAX_SUPPORTS`, which a test keeps equal):
 * known here without loading them, so that start-up need not.
 */
export const SYNTAX_FAMILIES: ReadonlySet<Family> = new Set<Family>([
  "c",
  "cpp",
  "java",
  "csharp",
  "ruby",
  "php",
  "bash",
  "kotlin",
  "zig",
  "swift",
  "scala",
  "elixir",
]);

/** The extensions (with their dot) of the files whose family is known without a language id. */
export const SOURCE_EXTENSIONS: readonly string[] = Object.keys(FAMILY_BY_EXTENSION);

/** The family of a document: by its LSP language id, else by its file extension; undefined for the others. */
export function familyOf(languageId: string | undefined, path: string): Family | undefined {
  const byId = languageId === undefined ? undefined : FAMILY_BY_LANGUAGE[languageId];
  if (byId) return byId;
  const dot = path.lastIndexOf(".");
  return dot === -1 ? undefined : FAMILY_BY_EXTENSION[path.slice(dot).toLowerCase()];
}

const HASH = ["#", ""] as const;
const DASHES = ["--", ""] as const;
const SLASHES = ["//", ""] as const;

/** Line comments (prefix, suffix) by LSP language id; `//` for the rest of the C family and unknown ids. */
const COMMENT_BY_LANGUAGE: Readonly<Record<string, readonly [string, string]>> = {
  python: HASH,
  ruby: HASH,
  shellscript: HASH,
  sh: HASH,
  bash: HASH,
  zsh: HASH,
  fish: HASH,
  perl: HASH,
  r: HASH,
  julia: HASH,
  elixir: HASH,
  nim: HASH,
  crystal: HASH,
  coffeescript: HASH,
  powershell: HASH,
  dockerfile: HASH,
  makefile: HASH,
  cmake: HASH,
  yaml: HASH,
  toml: HASH,
  nix: HASH,
  terraform: HASH,
  graphql: HASH,
  lua: DASHES,
  sql: DASHES,
  haskell: DASHES,
  elm: DASHES,
  ada: DASHES,
  clojure: [";;", ""],
  lisp: [";;", ""],
  scheme: [";;", ""],
  "emacs-lisp": [";;", ""],
  erlang: ["%", ""],
  latex: ["%", ""],
  tex: ["%", ""],
  matlab: ["%", ""],
  vim: ['"', ""],
  html: ["<!--", " -->"],
  xml: ["<!--", " -->"],
  markdown: ["<!--", " -->"],
  vue: ["<!--", " -->"],
  svelte: ["<!--", " -->"],
  css: ["/*", " */"],
  ocaml: ["(*", " *)"],
  fsharp: SLASHES,
};

/** A line of text as a comment in the document's language: `// text`, `# text`, `<!-- text -->`. */
export function commentLine(languageId: string, text: string): string {
  const [open, close] = COMMENT_BY_LANGUAGE[languageId] ?? SLASHES;
  return `${open} ${text}${close}`;
}
