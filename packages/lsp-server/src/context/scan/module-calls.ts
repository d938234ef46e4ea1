import { findClose, identifierBefore, Lexer, previousCode } from "./lexer.js";
import { CHAR, isIdentifierPart } from "./scan.js";
import type { SourceText } from "./source-text.js";

/** A call that loads a module by a literal name: `require("x")`, `import("x")`, Lua's `require "x"`. */
export interface ModuleCall {
  /** Offset of the called word. */
  readonly at: number;
  readonly specifier: string;
  /** The field read from the result right away: `require("x").field`. */
  readonly member?: string;
}

/**
 * The calls of `word` with a string literal as their only or first argument, anywhere in the code (not as a member:
 * `a.require(…)` is left out). `bare` accepts Lua's call without parentheses (`require "x"`).
 */
export function moduleCalls(source: SourceText, word: string, bare: boolean): ModuleCall[] {
  const { code, text } = source;
  const calls: ModuleCall[] = [];
  for (let at = code.indexOf(word); at !== -1; at = code.indexOf(word, at + word.length)) {
    const before = code.charCodeAt(at - 1);
    if (isIdentifierPart(before) || before === CHAR.DOT || before === CHAR.COLON) continue;
    if (isIdentifierPart(code.charCodeAt(at + word.length))) continue;
    const lx = new Lexer(code, text, at + word.length);
    lx.next();
    let end: number;
    let specifier: string | undefined;
    if (lx.isPunct("(")) {
      const paren = lx.start;
      lx.next();
      specifier = lx.value();
      lx.next();
      if (!lx.isPunct(")") && !lx.isPunct(",")) continue;
      end = findClose(code, paren) + 1;
    } else if (bare) {
      specifier = lx.value();
      end = lx.end;
    } else continue;
    if (specifier === undefined) continue;
    lx.seek(end);
    lx.next();
    let member: string | undefined;
    if (lx.isPunct(".")) {
      lx.next();
      member = lx.ident();
    }
    calls.push(member === undefined ? { at, specifier } : { at, specifier, member });
  }
  return calls;
}

/**
 * What an expression at `at` is assigned to: `<keyword> <name> = [await] …` gives the name and the keyword's
 * offset (`keywords` empty: any assignment `<name> = …`); `<keyword> {…} = …` gives the pattern's braces.
 */
export function assignmentBefore(
  code: string,
  at: number,
  keywords: readonly string[],
): { name?: string; pattern?: { open: number; close: number }; at: number } | undefined {
  let i = previousCode(code, at - 1);
  const awaited = identifierBefore(code, i);
  if (awaited?.word === "await") i = previousCode(code, awaited.start - 1);
  if (code.charCodeAt(i) !== CHAR.EQUALS || "=!<>~".includes(code[i - 1] ?? "")) return undefined;
  i = previousCode(code, i - 1);
  const declared = (end: number): number | undefined => {
    const keyword = identifierBefore(code, previousCode(code, end));
    return keyword && keywords.includes(keyword.word) ? keyword.start : undefined;
  };
  const name = identifierBefore(code, i);
  if (name !== undefined) {
    const keywordAt = keywords.length === 0 ? name.start : declared(name.start - 1);
    return keywordAt === undefined ? undefined : { name: name.word, at: keywordAt };
  }
  if (code.charCodeAt(i) !== CHAR.RBRACE) return undefined;
  const open = findOpenBrace(code, i);
  const keywordAt = open === -1 ? undefined : declared(open - 1);
  return keywordAt === undefined ? undefined : { pattern: { open, close: i }, at: keywordAt };
}

/** The `{` of a destructuring pattern closed at `close`, looking back a bounded way. */
function findOpenBrace(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - 4000; i--) {
    const c = code.charCodeAt(i);
    if (c === CHAR.RBRACE) depth++;
    else if (c === CHAR.LBRACE && --depth === 0) return i;
  }
  return -1;
}
