import type { Family, LanguageSupport } from "../types.js";
import { go } from "./go.js";
import { lua } from "./lua.js";
import { python } from "./python.js";
import { rust } from "./rust.js";
import { typescript } from "./typescript.js";

export { go, lua, python, rust, typescript };

/** The families with a parser; the others (their resolution is in `../resolve/`) are added with theirs. */
const SUPPORT: Readonly<Partial<Record<Family, LanguageSupport>>> = { typescript, python, go, rust, lua };

/** The analysis of a language family, or undefined when it has no parser yet. */
export function supportFor(family: Family): LanguageSupport | undefined {
  return SUPPORT[family];
}
