// What the eval knows of each language it measures: its sources, the language id an editor sends, how its comments
// and strings look (for the ctags oracle's scanner), which ctags kinds define a name, and which goal applies.
import type { HolePattern } from "./hole.js";
import { isTypeScriptSource } from "./holes.js";
import { rubyLocalNames } from "./ruby-locals.js";

/** A language of a corpus. */
export type Language = "TypeScript" | "C" | "C++" | "Java" | "C#" | "Ruby" | "PHP" | "Python" | "Go" | "Rust";

/** Comments and literals, enough to blank them out of a source file (see `source-lexer.ts`). */
export interface Syntax {
  /** Line comment openers: `//`, `#`. */
  readonly lineComments: readonly string[];
  /** Block comment delimiters (`/*`, `*\/`); `=begin`/`=end` for Ruby. Not nested. */
  readonly blockComments: readonly (readonly [string, string])[];
  /** String and character quotes (backslash escapes, end at the closing quote). */
  readonly quotes: readonly string[];
  /** Whether a quoted string may span lines (else it ends at the line break). */
  readonly multilineStrings: boolean;
  /** Quotes of raw strings: no escapes, may span lines (Go's backquote). */
  readonly rawQuotes?: readonly string[];
  /** Python's `"""` and `'''`. */
  readonly tripleQuotes?: boolean;
  /** C#'s `@"…"` (`""` escapes a quote). */
  readonly verbatimStrings?: boolean;
  /** Rust: `r"…"`, `r#"…"#`; and `'` opens a character literal only when it closes right after (else a lifetime). */
  readonly rust?: boolean;
}

/** Which ctags kinds (long names, `--fields=+K`) mean what to the oracle. */
export interface TagKinds {
  /** Named things a completion needs the declaration of: functions, methods, types, macros, constants, globals. */
  readonly entity: readonly string[];
  /** Members of an object (fields, properties): they count as definitions of a name, but are never a hole's X. */
  readonly field: readonly string[];
  /** Declarations that are not definitions (C prototypes, `extern`): more declaration lines of a defined name. */
  readonly declaration: readonly string[];
  /** Locals and parameters: a name so declared in the current file shadows the other file's. */
  readonly local: readonly string[];
  /**
   * Per hole pattern, the entity kinds X can have there (default: any): a Go type is never followed by `.`, a
   * Java class is called only with `new`, a C function is never followed by `->`. A name defined with none of
   * them is something else at that place (a local the language's ctags parser does not report).
   */
  readonly patterns?: Readonly<Partial<Record<HolePattern, readonly string[]>>>;
}

/**
 * How the declared-type member-access oracle (`member-decl-holes.ts`) reads a value's declared type and its type's members, by ctags
 * kinds: where the language has member-access holes.
 */
export interface ReceiverSpec {
  /** Kinds of a function's own names (locals; C++'s parameters too, which ctags tags). */
  readonly locals: readonly string[];
  /** Kinds of a class's fields (and properties). */
  readonly fields: readonly string[];
  /** Kinds of functions and methods, whose lines bound their locals (and whose signature lists parameters). */
  readonly functions: readonly string[];
  /** Kinds of types whose members a value reaches. */
  readonly types: readonly string[];
  /** Kinds of a type's members (methods, fields, properties; C++ prototypes and out-of-class definitions). */
  readonly members: readonly string[];
  /**
   * Where a declaration's type is read: ctags' `typeref` (C++), or the declaration's line and the function's
   * signature (Java, C#: ctags reports no types there).
   */
  readonly typeFrom: "typeref" | "line";
  /** The operators of a member access: `.`, and `->` where values may be pointers. */
  readonly operators: readonly ("." | "->")[];
}

/** How the eval reads a language. */
export interface LanguageSpec {
  /** Extensions of its source files, lower case, with the dot. */
  readonly extensions: readonly string[];
  /** The LSP language id an editor sends for its files (`.tsx`: `typescriptreact`). */
  readonly languageId: string;
  /**
   * `imports`: the context can follow the language's imports to the declaring file; `symbol index`: it has none
   * to follow (C#'s `using` names a namespace, not a file), a lookup by name must find it. The goals differ.
   */
  readonly lookup: "imports" | "symbol index";
  readonly syntax: Syntax;
  /** Undefined for TypeScript (its oracle is the compiler). */
  readonly kinds?: TagKinds;
  /** Ctags options enabling the kinds it leaves off by default that `kinds` names (locals, prototypes). */
  readonly ctagsKinds?: readonly string[];
  /**
   * Whether a method is called by its bare name from another class's code (Java's, C#'s, C++'s `this`, Ruby's
   * `self`: an inherited method); where not (Python's `self.`, PHP's `$this->`, Go and Rust receivers), a bare X
   * is never a method.
   */
  readonly implicitReceiver: boolean;
  /**
   * Whether `Type.member` is how a type's static members are reached (Java, C#, Python, Ruby), so that X after
   * `Q.` with Q a corpus type is reached by name; in C, C++, Go and Rust `Q.X` is a member of a value.
   */
  readonly typeDot: boolean;
  /** The operators after X that make a hole besides `X(`: `.`, `::`, `->`; and whether `new X(` exists. */
  readonly member: boolean;
  readonly scope: boolean;
  readonly arrow: boolean;
  readonly newOperator: boolean;
  /** An identifier, as the oracle's scanner reads them (`g` flag). */
  readonly identifier: RegExp;
  /**
   * Characters that, right before an identifier, make it another name: Ruby's `@x` and `@@x` (instance and class
   * variables) are not the method `x`. (`$` is never an identifier's start anywhere: PHP's `$x`, Ruby's `$x`.)
   */
  readonly sigils?: string;
  /**
   * The names a file binds as locals or parameters, from its code with comments and literals blanked, where the
   * language's ctags parser reports none (Ruby): they shadow another file's names, as ctags' locals do elsewhere.
   */
  readonly localNames?: (code: string) => Iterable<string>;
  /**
   * Whether a `private` member (ctags' access) is visible in its own class only, so never from another file (Java,
   * C#): such a definition cannot be what another file's X names.
   */
  readonly privateMembers?: boolean;
  /** Member-access holes (`x.m`, x a local, parameter or field): how to read x's type and its members. */
  readonly receivers?: ReceiverSpec;
}

const C_SYNTAX: Syntax = {
  lineComments: ["//"],
  blockComments: [["/*", "*/"]],
  quotes: ['"', "'"],
  multilineStrings: false,
};

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

const C_KINDS: TagKinds = {
  entity: ["function", "macro", "enumerator", "enum", "struct", "union", "typedef", "class", "variable"],
  field: ["member"],
  declaration: ["prototype", "externvar"],
  local: ["local", "parameter"],
  patterns: {
    // A function-like macro, a function (or a pointer to one), a constructor or functional cast.
    call: ["function", "macro", "variable", "class", "struct", "typedef"],
    new: ["class", "struct", "typedef"],
    member: ["variable", "macro"],
    arrow: ["variable", "macro"],
    scope: ["class", "struct", "enum", "union", "typedef"],
  },
};

const C_FAMILY = {
  lookup: "imports",
  syntax: C_SYNTAX,
  kinds: C_KINDS,
  ctagsKinds: [
    "--kinds-C=+{prototype}{externvar}{local}{parameter}",
    "--kinds-C++=+{prototype}{externvar}{local}{parameter}",
  ],
  implicitReceiver: true,
  typeDot: false,
  member: true,
  scope: true,
  arrow: true,
  identifier: IDENTIFIER,
} as const;

/** Every language the eval measures. */
export const LANGUAGES: Readonly<Record<Language, LanguageSpec>> = {
  TypeScript: {
    extensions: [".ts", ".mts", ".cts", ".tsx"],
    languageId: "typescript",
    lookup: "imports",
    syntax: C_SYNTAX,
    implicitReceiver: false,
    typeDot: true,
    member: true,
    scope: false,
    arrow: false,
    newOperator: true,
    identifier: IDENTIFIER,
  },
  // Headers are C's in a C corpus and C++'s in a C++ one, as an editor configured for the project sends them.
  C: { ...C_FAMILY, extensions: [".c", ".h"], languageId: "c", scope: false, newOperator: false },
  "C++": {
    ...C_FAMILY,
    extensions: [".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".ipp"],
    languageId: "cpp",
    newOperator: true,
    receivers: {
      locals: ["local", "parameter"],
      fields: ["member"],
      functions: ["function"],
      types: ["class", "struct", "union"],
      members: ["function", "prototype", "member"],
      typeFrom: "typeref",
      operators: [".", "->"],
    },
  },
  Java: {
    extensions: [".java"],
    languageId: "java",
    lookup: "imports",
    syntax: C_SYNTAX,
    kinds: {
      entity: ["class", "interface", "enum", "annotation", "method"],
      // Constants of an enum are written `E.C`: a bare `C` is something else (C# and Java alike).
      field: ["field", "enumConstant"],
      declaration: [],
      local: ["local"],
      patterns: { call: ["method"], new: ["class"], member: ["class", "interface", "enum"] },
    },
    ctagsKinds: ["--kinds-Java=+{local}"],
    privateMembers: true,
    receivers: {
      locals: ["local"],
      fields: ["field"],
      functions: ["method"],
      types: ["class", "interface", "enum"],
      members: ["method", "field"],
      typeFrom: "line",
      operators: ["."],
    },
    implicitReceiver: true,
    typeDot: true,
    member: true,
    scope: false,
    arrow: false,
    newOperator: true,
    identifier: IDENTIFIER,
  },
  "C#": {
    extensions: [".cs"],
    languageId: "csharp",
    lookup: "symbol index",
    syntax: { ...C_SYNTAX, verbatimStrings: true },
    kinds: {
      entity: ["class", "interface", "struct", "enum", "method", "typedef"],
      field: ["field", "property", "event", "enumerator"],
      declaration: [],
      local: ["local"],
      patterns: {
        call: ["method"],
        new: ["class", "struct"],
        member: ["class", "interface", "struct", "enum", "typedef"],
      },
    },
    ctagsKinds: ["--kinds-C#=+{local}"],
    privateMembers: true,
    receivers: {
      locals: ["local"],
      fields: ["field", "property"],
      functions: ["method"],
      types: ["class", "interface", "struct", "enum"],
      members: ["method", "field", "property", "event"],
      typeFrom: "line",
      operators: ["."],
    },
    implicitReceiver: true,
    typeDot: true,
    member: true,
    scope: false,
    arrow: false,
    newOperator: true,
    identifier: IDENTIFIER,
  },
  Ruby: {
    extensions: [".rb"],
    languageId: "ruby",
    lookup: "imports",
    syntax: {
      lineComments: ["#"],
      blockComments: [["\n=begin", "\n=end"]],
      quotes: ['"', "'", "`"],
      multilineStrings: true,
    },
    kinds: {
      entity: ["class", "module", "method", "singletonMethod", "constant", "alias"],
      field: ["accessor"],
      declaration: [],
      local: [],
      patterns: { call: ["method", "singletonMethod", "alias"], scope: ["class", "module", "constant"] },
    },
    implicitReceiver: true,
    typeDot: true,
    member: true,
    scope: true,
    arrow: false,
    newOperator: false,
    // `empty?`, `save!` (not `a!=b`).
    identifier: /[A-Za-z_][A-Za-z0-9_]*(?:[?!](?!=))?/g,
    sigils: "@",
    localNames: rubyLocalNames,
  },
  PHP: {
    extensions: [".php"],
    languageId: "php",
    lookup: "imports",
    syntax: {
      lineComments: ["//", "#"],
      blockComments: [["/*", "*/"]],
      quotes: ['"', "'"],
      multilineStrings: true,
    },
    kinds: {
      entity: ["class", "interface", "trait", "function", "define"],
      field: ["variable"],
      declaration: [],
      local: ["local"],
      patterns: { call: ["function"], new: ["class"], scope: ["class", "interface", "trait"] },
    },
    ctagsKinds: ["--kinds-PHP=+{local}"],
    implicitReceiver: false,
    typeDot: false,
    // `.` concatenates strings in PHP; `X->` is a property (a field, never a hole's X).
    member: false,
    scope: true,
    arrow: false,
    newOperator: true,
    identifier: IDENTIFIER,
  },
  Python: {
    extensions: [".py"],
    languageId: "python",
    lookup: "imports",
    syntax: {
      lineComments: ["#"],
      blockComments: [],
      quotes: ['"', "'"],
      multilineStrings: false,
      tripleQuotes: true,
    },
    kinds: {
      // `member` is a method; `variable` a module- or class-level assignment.
      entity: ["class", "function", "member", "variable"],
      field: [],
      declaration: [],
      local: ["local", "parameter"],
      patterns: { call: ["class", "function", "member"], member: ["class", "variable"] },
    },
    ctagsKinds: ["--kinds-Python=+{local}{parameter}"],
    implicitReceiver: false,
    typeDot: true,
    member: true,
    scope: false,
    arrow: false,
    newOperator: false,
    identifier: IDENTIFIER,
  },
  Go: {
    extensions: [".go"],
    languageId: "go",
    lookup: "imports",
    syntax: { ...C_SYNTAX, rawQuotes: ["`"] },
    kinds: {
      entity: ["func", "type", "struct", "interface", "talias", "const", "var", "methodSpec"],
      field: ["member", "anonMember"],
      declaration: [],
      local: [],
      // A Go type is converted with `T(x)` but never followed by `.`: there X is a variable.
      patterns: { member: ["var"] },
    },
    implicitReceiver: false,
    typeDot: false,
    member: true,
    scope: false,
    arrow: false,
    newOperator: false,
    identifier: IDENTIFIER,
  },
  Rust: {
    extensions: [".rs"],
    languageId: "rust",
    lookup: "imports",
    syntax: { ...C_SYNTAX, quotes: ['"'], multilineStrings: true, rust: true },
    kinds: {
      entity: [
        "function",
        "method",
        "struct",
        "enum",
        "enumerator",
        "interface",
        "typedef",
        "macro",
        "variable",
      ],
      field: ["field"],
      declaration: [],
      local: [],
      patterns: {
        call: ["function", "method", "struct", "enumerator"],
        member: ["variable"],
        scope: ["struct", "enum", "interface", "typedef"],
      },
    },
    implicitReceiver: false,
    typeDot: false,
    member: true,
    scope: true,
    arrow: false,
    newOperator: false,
    identifier: IDENTIFIER,
  },
};

/** Whether a workspace-relative path is a source file of the language. */
export function isSourceOf(language: Language, file: string): boolean {
  if (language === "TypeScript") return isTypeScriptSource(file);
  const dot = file.lastIndexOf(".");
  return dot !== -1 && LANGUAGES[language].extensions.includes(file.slice(dot).toLowerCase());
}

/** The LSP language id an editor sends for a file of a corpus in `language`. */
export function languageIdOf(language: Language, file: string): string {
  return file.endsWith(".tsx") ? "typescriptreact" : LANGUAGES[language].languageId;
}
