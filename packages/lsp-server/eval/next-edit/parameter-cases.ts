// Parameters added: a function gets a new last parameter, and its calls near it in the same file an argument. Pure.
import type { Language } from "../languages.js";
import { closingParen, headerList, listItems } from "./declaration-rules.js";
import type { EditCase, TextEdit } from "./edit-case.js";
import { SPAN_LINES } from "./rename-cases.js";
import type { SourceText } from "./source-text.js";

/** Names for the new parameter, the first the file does not use taken. */
const NEW_NAMES = ["scale", "limit", "depth", "offset", "extra", "flags"];

/** The new parameter as the language declares it. */
const PARAMETER: Record<Language, (name: string) => string> = {
  TypeScript: (name) => `${name}: number`,
  Python: (name) => name,
  Ruby: (name) => name,
  Go: (name) => `${name} int`,
  Rust: (name) => `${name}: usize`,
  PHP: (name) => `$${name}`,
  C: (name) => `int ${name}`,
  "C++": (name) => `int ${name}`,
  Java: (name) => `int ${name}`,
  "C#": (name) => `int ${name}`,
};

/** Words before a name that make `name(` a call, not a declaration (`return f(`, `new F(`, `go f(`). */
const CALLERS = new Set([
  "return",
  "new",
  "await",
  "yield",
  "else",
  "throw",
  "in",
  "not",
  "and",
  "or",
  "go",
  "defer",
]);

/** What an occurrence of the function's name is, other than its header. */
type Use = { kind: "call"; close: number; count: number; spaced: boolean } | { kind: "other" };

/**
 * A use of `name` at `offset`: a call whose arguments close on its line (their count), or anything else. A call on
 * a receiver is this function's only on the object's own (`this.f(`, `self.f(`, `$this->f(`, `self::f(`, and in Go
 * the header's receiver `r.f(`): `other.f(` may be another type's `f`.
 */
function useAt(source: SourceText, offset: number, name: string, receivers: ReadonlySet<string>): Use {
  const line = source.lineOf(offset);
  const start = source.lineStart(line);
  const code = source.codeLines[line]!;
  const at = offset - start;
  const before = code.slice(0, at);
  const word = /([A-Za-z_]\w*)[\s*&]+$/.exec(before)?.[1];
  if (word !== undefined && !CALLERS.has(word)) return { kind: "other" };
  const member = /([\w$]*)\s*(?:\.|->|::|\?\.)\s*$/.exec(before);
  if (member && !receivers.has(member[1]!)) return { kind: "other" };
  const open = code.indexOf("(", at + name.length);
  if (open === -1 || code.slice(at + name.length, open).trim() !== "") return { kind: "other" };
  const close = closingParen(code, open);
  if (close === undefined) return { kind: "other" };
  const items = listItems(code, open, close);
  const spaced = /\s/.test(code[close - 1] ?? "") && items.length > 0;
  return { kind: "call", close: start + close, count: items.length, spaced };
}

/** Where to insert after a list's last item (`(a, b)` → after `b`; `()` → inside). */
function insertionAt(close: number, count: number, argument: string): TextEdit {
  return { start: close, end: close, text: count === 0 ? argument : `, ${argument}` };
}

/**
 * Every parameter case of a file: a function whose header (its parameter list on one line, no defaults, rest or
 * variadic parameters, no `self`) is the one declaration of its name in the file, every other occurrence of the name
 * a call with as many arguments on one line, at least one, all within {@link SPAN_LINES} lines of the header. The
 * user types `, scale: number` (the language's form) before the header's `)`; each call gets `, scale` before its
 * own. Lists written with a space before `)` are left out: where the new item goes in them is a matter of taste.
 */
export function parameterCases(source: SourceText): EditCase[] {
  const cases: EditCase[] = [];
  const taken = NEW_NAMES.find((name) => source.occurrences(name).length === 0);
  if (taken === undefined) return cases;
  const argument = source.language === "PHP" ? `$${taken}` : taken;
  source.codeLines.forEach((code, line) => {
    const header = headerList(code, source.language);
    if (!header) return;
    const items = listItems(code, header.open, header.close, true).map((item) => item.text.trim());
    if (items.some((item) => /=|\.\.\.|^[*&]|^params\b/.test(item))) return;
    if (/^(?:self|cls|this)\b/.test(items[0] ?? "") || /\s$/.test(code.slice(0, header.close))) return;
    const start = source.lineStart(line);
    const uses = source.occurrences(header.name);
    const own = uses.filter((use) => use.line === line && use.offset - start < header.open);
    if (own.length !== 1 || uses.some((use) => !use.inCode)) return;
    const receivers = new Set(["this", "self", "$this", "static", "parent"]);
    const goReceiver = /^\s*func\s*\(\s*([A-Za-z_]\w*)/.exec(code)?.[1];
    if (goReceiver) receivers.add(goReceiver);
    const calls = uses
      .filter((use) => use !== own[0])
      .map((use) => useAt(source, use.offset, header.name, receivers));
    if (calls.length === 0 || calls.some((call) => call.kind !== "call" || call.count !== items.length))
      return;
    const lines = uses.map((use) => use.line);
    if (Math.max(...lines) - Math.min(...lines) > SPAN_LINES) return;
    if (calls.some((call) => call.kind === "call" && call.spaced)) return;
    cases.push({
      id: `${source.file}:${line + 1}:parameter:${header.name}`,
      kind: "parameter",
      file: source.file,
      first: insertionAt(start + header.close, items.length, PARAMETER[source.language](taken)),
      rest: calls.map((call) => insertionAt((call as { close: number }).close, items.length, argument)),
      what: `${header.name}(…, ${taken}) (${calls.length} call${calls.length > 1 ? "s" : ""}${
        Math.min(...lines) < line ? ", some above" : ""
      })`,
    });
  });
  return cases;
}
