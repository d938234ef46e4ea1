// What a hole is, whichever oracle found it: the TypeScript compiler (holes.ts) or Universal Ctags (tag-holes.ts).

/** How a TypeScript hole's identifier reached the current file (the TypeScript oracle's strata). */
export type ImportKind = "named" | "namespace" | "default";

/**
 * How the current file reaches the file declaring a ctags hole's identifier (the ctags oracle's strata):
 * `import`, by the language's import rule (an `#include`, `import`, `use`, `require`, `using`, `mod`);
 * `package`, without one, because both are in the same package, namespace or folder; `name`, neither: only a
 * lookup by name (a workspace symbol index) finds it.
 */
export type Reach = "import" | "package" | "name";

/**
 * What a member-access hole's receiver is: a name (a local, a parameter, a module's own value), `this`/`self`, or
 * a field of another value (`this.f`, `obj.f`).
 */
export type Receiver = "name" | "self" | "field";

/** Every receiver kind, in report order. */
export const RECEIVERS: readonly Receiver[] = ["name", "self", "field"];

/** A hole's stratum: what recall is broken down by. */
export type Stratum = ImportKind | Reach | Receiver;

/** Every import kind, in report order. */
export const IMPORT_KINDS: readonly ImportKind[] = ["named", "namespace", "default"];

/** Every reach, in report order. */
export const REACHES: readonly Reach[] = ["import", "package", "name"];

/**
 * What was being typed at the hole: `X(` (call), `new X(`, `X.` (member), `X<` (generic, TypeScript), `X::`
 * (scope), `X->` (arrow); `x.` (access: a member of a value's type, issue 24's holes).
 */
export type HolePattern = "call" | "new" | "member" | "generic" | "scope" | "arrow" | "access";

/** Every hole pattern, in report order. */
export const HOLE_PATTERNS: readonly HolePattern[] = ["call", "new", "member", "generic", "scope", "arrow"];

/** Where a hole's identifier is declared: a workspace-relative path and the declaration's name line. */
export interface DeclarationLine {
  /** Workspace-relative path, `/`-separated. */
  readonly file: string;
  /** 0-based line of the declaration's name. */
  readonly line: number;
  /** That line, trimmed: what a request must contain for the hole to count as recalled. */
  readonly text: string;
}

/**
 * What a language server answers for `textDocument/typeDefinition` at a member-access hole's receiver, as its
 * oracle knows it: the editor's answer to `infill/typeDefinitions` when the server asks about that position.
 */
export interface ReceiverType {
  /** The receiver's first character (0-based, UTF-16): x's in `x.m`, f's in `this.f.m`, `this`'s in `this.m`. */
  readonly line: number;
  readonly character: number;
  /**
   * One past the name's last character: a language server answers the same anywhere in the name (tsserver takes
   * the token touching the position), so a question there is about the receiver too (`this.#f`: asked at `f`).
   */
  readonly end: number;
  /**
   * Where the receiver's type is declared: workspace-relative files and the 0-based lines of the type's name, first
   * the one an editor takes; none when the oracle does not know (answered as a server that finds nothing).
   */
  readonly declarations: ReadonlyArray<{ readonly file: string; readonly line: number }>;
}

/** A place where completing the line needs a declaration from another file. */
export interface Hole {
  /** `file:line:character` (1-based), stable across runs. */
  readonly id: string;
  /** Workspace-relative path of the current file, `/`-separated. */
  readonly file: string;
  /** The cursor (0-based, UTF-16): right after the `(`, `.`, `<`, `::` or `->` that follows the identifier. */
  readonly line: number;
  readonly character: number;
  /** The cursor as an offset into the file's text (UTF-16). */
  readonly offset: number;
  /** The identifier X whose declaration the completion needs (for `ns.X(`, X). */
  readonly name: string;
  readonly stratum: Stratum;
  readonly pattern: HolePattern;
  /**
   * X's declarations in other files of the corpus (several for overloads, merged declarations, a C prototype
   * and its definition); the hole is recalled when a request contains any of their lines. The first is in the
   * file that defines X, the one the "tabs" scenario opens.
   */
  readonly declarations: readonly DeclarationLine[];
  /** Workspace-relative paths of the corpus files the current file imports (for choosing unrelated tabs). */
  readonly imports: readonly string[];
  /**
   * Whether X came through a bare specifier (`@scope/pkg`, not `./x`): another package of the workspace, which
   * the TypeScript oracle resolves through the corpus's own `paths` (`Corpus.packagePaths`). Always false for
   * ctags holes.
   */
  readonly crossPackage: boolean;
  /** A member-access hole's receiver and where its type is declared; absent from the other holes. */
  readonly receiverType?: ReceiverType;
}
