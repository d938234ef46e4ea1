// The next-edit oracles' reading of declarations, per language, from one line of code (comments and literals
// blanked): which lines open a function with its parameter list on the line, and where a local is declared. Lexical
// and deliberately narrow (a declaration it does not recognise only makes fewer cases); shared with nothing in the
// server or the simulator.
import type { Language } from "../languages.js";

/** A function header's parameter list on one line: its `(` and `)` (offsets in the line) and the function's name. */
export interface HeaderList {
  readonly name: string;
  readonly open: number;
  readonly close: number;
}

/** Words that open a statement, never a type or a function's name. */
const KEYWORDS = new Set([
  "if",
  "else",
  "for",
  "foreach",
  "while",
  "do",
  "switch",
  "case",
  "return",
  "new",
  "delete",
  "throw",
  "throws",
  "goto",
  "sizeof",
  "typeof",
  "catch",
  "using",
  "lock",
  "await",
  "yield",
  "in",
  "is",
  "as",
  "not",
  "and",
  "or",
  "defer",
  "go",
  "echo",
  "print",
  "elif",
  "except",
  "with",
  "assert",
  "raise",
  "del",
  "import",
  "from",
  "unless",
  "until",
  "when",
  "then",
  "fixed",
  "checked",
  "unchecked",
  "default",
]);

/**
 * Where the parameter list opens, by language: the `(` after the function's name, on a line that defines one.
 * C-like languages: a type (or modifiers) and a name before it, and a body or nothing after the `)` (not `;`).
 */
const HEADERS: Record<Language, RegExp[]> = {
  TypeScript: [
    /\bfunction\b\s*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\(/,
    /^\s*(?:(?:public|private|protected|static|async|override|readonly|abstract)\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\((?=.*\)\s*(?::[^{;=]+)?\{\s*$)/,
  ],
  Python: [/^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/],
  Ruby: [/^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!]?)\s*\(/],
  Go: [/^\s*func\s+(?:\([^()]*\)\s*)?([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\(/],
  Rust: [/\bfn\s+([A-Za-z_]\w*)\s*(?:<[^>()]*>)?\s*\(/],
  PHP: [/\bfunction\s*&?\s*([A-Za-z_]\w*)\s*\(/],
  C: [cHeader()],
  "C++": [cHeader()],
  Java: [cHeader()],
  "C#": [cHeader()],
};

function cHeader(): RegExp {
  return /^\s*(?:[\w:<>,[\]*&~.?]+\s+)+[*&]*\s*((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\((?=.*\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:throws\s+[\w.,\s]+)?(?::[^;]*)?\{?\s*$)/;
}

/** The `)` matching the `(` at `open` in a line of code, or undefined when the line does not close it. */
export function closingParen(line: string, open: number): number | undefined {
  let depth = 0;
  for (let at = open; at < line.length; at++) {
    const char = line[at];
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) return char === ")" ? at : undefined;
    }
  }
  return undefined;
}

/** The parameter list of a function defined on this line of code, when it closes on the line. */
export function headerList(codeLine: string, language: Language): HeaderList | undefined {
  for (const header of HEADERS[language]) {
    const match = header.exec(codeLine);
    if (!match) continue;
    const qualified = match[1]!;
    const name = qualified.slice(qualified.lastIndexOf(":") + 1).replace(/^~/, "");
    const firstWord = /^\s*([A-Za-z_]\w*)/.exec(codeLine)?.[1];
    if (KEYWORDS.has(name) || (firstWord !== undefined && KEYWORDS.has(firstWord))) continue;
    const open = match.index + match[0].length - 1;
    const close = closingParen(codeLine, open);
    if (close !== undefined) return { name, open, close };
  }
  return undefined;
}

/**
 * The items of a list between `(` at `open` and `)` at `close`: split at the commas outside brackets (and outside
 * `<…>` when `angles`, as in a parameter's type `Map<K, V>`); an empty list has none.
 */
export function listItems(
  line: string,
  open: number,
  close: number,
  angles = false,
): { text: string; start: number }[] {
  const items: { text: string; start: number }[] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = open + 1; at <= close; at++) {
    const char = line[at];
    if (char === "(" || char === "[" || char === "{" || (angles && char === "<")) depth++;
    else if ((char === ")" || char === "]" || char === "}" || (angles && char === ">")) && at < close)
      depth--;
    if ((char === "," && depth === 0) || at === close) {
      const text = line.slice(start, at);
      if (text.trim() !== "" || items.length > 0 || char === ",") items.push({ text, start });
      start = at + 1;
    }
  }
  return items;
}

/** Whether the name at `at` in a line of code is declared there as a parameter: inside a header's list. */
function isParameter(codeLine: string, at: number, language: Language): boolean {
  const header = headerList(codeLine, language);
  return header !== undefined && at > header.open && at < header.close;
}

/** A C-like declaration's start: the statement so far is a type (with modifiers), and the name follows it. */
const C_DECLARED_BEFORE =
  /(?:^|[;{(]|\bfor\s*\()\s*((?:(?:const|final|static|volatile|register|unsigned|signed|struct|enum|auto|var|ref|out|readonly|scoped)\s+)*)([A-Za-z_][\w:.]*)(?:\s*<[^;()=]*>)?(?:\s*\[\s*\])*[\s*&?]*$/;
const C_DECLARED_AFTER = /^\s*(?:=(?!=)|;|,|\[|:(?!:)|\s+in\b)/;

/** The rule for a local declared at `at` (before it: `before`, after it: `after`), by language. */
const LOCALS: Record<Language, (before: string, after: string) => boolean> = {
  TypeScript: (before, after) =>
    (/\b(?:let|const|var)\s+$/.test(before) && /^\s*(?:[:=;,)]|$|(?:of|in)\b)/.test(after)) ||
    /\bcatch\s*\(\s*$/.test(before),
  Python: (before, after) =>
    (/^\s+$/.test(before) && /^\s*(?::[^=]*)?=(?!=)/.test(after)) ||
    (/\bfor\s+[\w\s,()]*$/.test(before) && /^[\w\s,()]*\bin\b/.test(after)) ||
    /\bas\s+$/.test(before),
  Ruby: (before, after) =>
    (/^\s+$/.test(before) && /^\s*=(?![=~>])/.test(after)) ||
    (/(?:\bdo|\{)\s*\|[\w\s,*&]*$/.test(before) && /^[\w\s,*&]*\|/.test(after)) ||
    (/\bfor\s+$/.test(before) && /^\s+in\b/.test(after)),
  Go: (before, after) =>
    (/^\s*(?:(?:if|for|switch)\s+)?(?:[A-Za-z_]\w*\s*,\s*)*$/.test(before) &&
      /^\s*(?:,\s*[A-Za-z_]\w*\s*)*:=/.test(after)) ||
    /\bvar\s+(?:[A-Za-z_]\w*\s*,\s*)*$/.test(before),
  Rust: (before, after) =>
    /\blet\s+(?:mut\s+)?$/.test(before) ||
    /\blet\s+(?:mut\s+)?\(\s*(?:(?:mut\s+)?\w+\s*,\s*)*(?:mut\s+)?$/.test(before) ||
    (/\bfor\s+(?:\(\s*)?(?:\w+\s*,\s*)*$/.test(before) && /^[\w\s,)]*\bin\b/.test(after)) ||
    (/(?:^|[(,=]\s*|move\s+)\|\s*(?:(?:mut\s+)?\w+(?:\s*:\s*[^,|]+)?\s*,\s*)*(?:mut\s+)?$/.test(before) &&
      /^\s*(?::[^|]*)?(?:,[^|]*)?\|/.test(after)),
  PHP: (before, after) =>
    (/^\s+$/.test(before) && /^\s*=(?![=>])/.test(after)) ||
    /\bas\s+(?:\$\w+\s*=>\s*)?&?\s*$/.test(before) ||
    /\bcatch\s*\([\w\\|\s]+$/.test(before),
  C: cLocal,
  "C++": cLocal,
  Java: cLocal,
  "C#": cLocal,
};

function cLocal(before: string, after: string): boolean {
  const match = C_DECLARED_BEFORE.exec(before);
  return match !== null && !KEYWORDS.has(match[2]!) && C_DECLARED_AFTER.test(after);
}

/**
 * Whether the occurrence of `name` at `at` in a line of code declares it: a parameter in a function header's list,
 * or a local by the language's declaration forms (`let x`, `x :=`, `int x =`, `$x =` at a statement's start…).
 */
export function declaresHere(codeLine: string, at: number, name: string, language: Language): boolean {
  if (isParameter(codeLine, at, language)) return true;
  return LOCALS[language](codeLine.slice(0, at), codeLine.slice(at + name.length));
}
