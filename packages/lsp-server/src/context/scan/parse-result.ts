// What a parse returns, and how the parsers assemble it from their items.

import type { ModuleImport, ModuleOutline, ReExport } from "../types.js";
import { type Item, toDeclaration } from "./snippet.js";
import type { TextLines } from "./source-text.js";

/** A local name exported under another: TS `export { a as b }`, Lua `return { b = a }`. */
export interface LocalExport {
  readonly exported: string;
  readonly local: string;
}

/** What `LanguageSupport.parse` returns. */
export interface Parsed {
  imports: ModuleImport[];
  outline: ModuleOutline;
}

/**
 * `parse` that returns an empty result instead of throwing: a parser bug on one odd file must not fail the
 * request it serves. The tests call the parsers themselves, so such a bug still fails them.
 */
export function guardedParse(parse: (text: string) => Parsed): (text: string) => Parsed {
  return (text) => {
    try {
      return parse(text);
    } catch {
      return { imports: [], outline: { declarations: [], reexports: [] } };
    }
  };
}

/**
 * Consecutive functions or methods of one name as one item (TypeScript overloads, Python `@overload`): the
 * signatures, then the implementation's.
 */
export function mergeOverloads(items: Item[]): Item[] {
  const merged: Item[] = [];
  for (const item of items) {
    const previous = merged[merged.length - 1];
    if (
      previous &&
      previous.name === item.name &&
      previous.kind === item.kind &&
      (item.kind === "function" || item.kind === "method")
    ) {
      const { body, end } = item;
      merged[merged.length - 1] = { ...previous, end, exported: previous.exported || item.exported };
      if (body) merged[merged.length - 1]!.body = body;
      else delete merged[merged.length - 1]!.body;
    } else merged.push(item);
  }
  return merged;
}

/** The outline of parsed items: exported as `localExports` says too, snippets built; `pkg` its package. */
export function outlineOf(
  source: TextLines,
  items: readonly Item[],
  reexports: ReExport[],
  localExports: readonly LocalExport[],
  defaultExport: string | undefined,
  pkg?: string,
): ModuleOutline {
  const exportedNames = new Set(localExports.map((e) => e.local));
  if (defaultExport !== undefined) exportedNames.add(defaultExport);
  return {
    declarations: items.map((item) =>
      toDeclaration(source, exportedNames.has(item.name) ? { ...item, exported: true } : item),
    ),
    reexports,
    ...(localExports.length > 0 ? { localExports } : {}),
    ...(defaultExport === undefined ? {} : { defaultExport }),
    ...(pkg === undefined ? {} : { package: pkg }),
  };
}
