// What the rule tables share to read a binding: the nearest of several, a name's annotation and initializer, whether
// a name stands in a function's parameter list. Pure.
import type { Binding } from "./rules.js";
import { closeAngle, escapeName, type ScopeText } from "./scope-text.js";

/** The binding nearest the end of the scope (the largest `at`), of those found. */
export function nearest(...found: ReadonlyArray<Binding | undefined>): Binding | undefined {
  let best: Binding | undefined;
  for (const binding of found)
    if (binding && (best === undefined || (binding.at ?? -1) > (best.at ?? -1))) best = binding;
  return best;
}

/** How a declaration's annotation and value are written after its name. */
export interface DeclarationSyntax {
  /** Characters between the name and the annotation's `:` (TypeScript's `?`, `!`). */
  readonly marks?: string;
  /** Where an annotation ends besides `=` (a parameter's `,` and `)`, a statement's `;`). */
  readonly typeStops: string;
  /** Where a value ends (a statement's `;`; a line break outside brackets always does when `lineBreaks`). */
  readonly valueStops: string;
  /** A line break outside brackets ends the annotation and the value. */
  readonly lineBreaks: boolean;
  /** `<…>` are brackets in a type. */
  readonly angles: boolean;
  /** `:=` (Go) gives a value as `=` does. */
  readonly walrus?: boolean;
}

/**
 * The annotation (`: T`) and value (`= v`) written after a name that ends at `end` in the scope; `at` is where the
 * binding starts (a value is read in the code above it). Undefined when neither follows.
 */
export function annotated(
  scope: ScopeText,
  end: number,
  at: number,
  syntax: DeclarationSyntax,
): Binding | undefined {
  const { code } = scope;
  let i = end;
  while (i < code.length && (code[i] === " " || code[i] === "\t" || syntax.marks?.includes(code[i]!))) i++;
  let type: string | undefined;
  if (code[i] === ":" && code[i + 1] !== "=" && code[i + 1] !== ":") {
    const read = scope.read(i + 1, `=${syntax.typeStops}`, {
      angles: syntax.angles,
      lineBreaks: syntax.lineBreaks,
    });
    type = read.text || undefined;
    i = read.end;
  }
  while (i < code.length && (code[i] === " " || code[i] === "\t")) i++;
  let value: string | undefined;
  const assigns = code[i] === "=" && code[i + 1] !== "=" && code[i + 1] !== ">";
  const walrus = syntax.walrus && code[i] === ":" && code[i + 1] === "=";
  if (assigns || walrus) {
    const read = scope.read(i + (walrus ? 2 : 1), syntax.valueStops, { lineBreaks: syntax.lineBreaks });
    value = read.text || undefined;
  }
  if (type === undefined && value === undefined) return undefined;
  return { ...(type !== undefined ? { type } : {}), ...(value !== undefined ? { value } : {}), at };
}

/**
 * Whether the name at `at` stands in a function's parameter list: the bracket around it is a `(` that is closed,
 * and what follows its `)` starts as a signature goes on (`after`: a return type, a body, an arrow), not as a call's
 * result does.
 */
export function inParameters(scope: ScopeText, at: number, after: RegExp): boolean {
  const open = scope.openerAt(at);
  if (open < 0 || scope.code[open] !== "(") return false;
  const close = scope.closerOf(open);
  if (close >= scope.code.length) return false;
  return after.test(scope.code.slice(close + 1, close + 80));
}

/** The text of the comment lines right above `at` (a doc comment's tags: `@type {T}`), or "". */
export function commentAbove(scope: ScopeText, at: number): string {
  const { code, text } = scope;
  let lineStart = code.lastIndexOf("\n", at - 1) + 1;
  const lines: string[] = [];
  for (let n = 0; n < 12 && lineStart > 0; n++) {
    const start = code.lastIndexOf("\n", lineStart - 2) + 1;
    if (code.slice(start, lineStart - 1).trim() !== "") break;
    const line = text.slice(start, lineStart - 1);
    if (line.trim() === "") break;
    lines.unshift(line);
    lineStart = start;
  }
  return lines.join("\n");
}

/** A JSDoc tag's type: `@type {T}`, `@returns {T}`, `@param {T} name`; undefined when the comment has none. */
export function docType(
  comment: string,
  tag: "type" | "returns" | "param",
  name?: string,
): string | undefined {
  const tags = tag === "returns" ? "returns?" : tag;
  const after = name === undefined ? "" : `\\s*\\[?${name.replace(/[$]/g, "\\$")}\\b`;
  const m = new RegExp(`@${tags}\\s*\\{([^{}]*(?:\\{[^{}]*\\}[^{}]*)*)\\}${after}`).exec(comment);
  return m?.[1]?.trim() || undefined;
}

/**
 * The type a `type X<T> = Y<T>;` alias (TypeScript, Rust) names, read up to `;` (or a line break outside brackets,
 * with `lineBreaks`); undefined when the lines declare no such alias.
 */
export function typeAlias(lines: ScopeText, name: string, lineBreaks: boolean): string | undefined {
  const m = new RegExp(`\\btype\\s+${escapeName(name)}\\b`, "u").exec(lines.code);
  if (!m) return undefined;
  let i = lines.skipBlank(m.index + m[0].length);
  if (lines.code[i] === "<") i = closeAngle(lines.code, i) + 1;
  i = lines.skipBlank(i);
  if (lines.code[i] !== "=") return undefined;
  return lines.read(i + 1, ";", { angles: true, lineBreaks }).text || undefined;
}
