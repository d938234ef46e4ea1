import type { Family, LanguageSupport } from "../types.js";
import { go } from "./go.js";
import { lua } from "./lua.js";
import { python } from "./python.js";
import { rust } from "./rust.js";
import { typescript } from "./typescript.js";

export { go, lua, python, rust, typescript };

const SUPPORT: Readonly<Record<Family, LanguageSupport>> = { typescript, python, go, rust, lua };

/** The analysis of a language family. */
export function supportFor(family: Family): LanguageSupport {
  return SUPPORT[family];
}
