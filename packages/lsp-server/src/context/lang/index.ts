import type { Family, LanguageSupport } from "../types.js";
import { bash } from "./bash.js";
import { c, cpp } from "./c.js";
import { csharp } from "./csharp.js";
import { go } from "./go.js";
import { java } from "./java.js";
import { lua } from "./lua.js";
import { php } from "./php.js";
import { python } from "./python.js";
import { ruby } from "./ruby.js";
import { rust } from "./rust.js";
import { typescript } from "./typescript.js";

export { bash, c, cpp, csharp, go, java, lua, php, python, ruby, rust, typescript };

const SUPPORT: Readonly<Record<Family, LanguageSupport>> = {
  typescript,
  python,
  go,
  rust,
  lua,
  c,
  cpp,
  java,
  csharp,
  ruby,
  php,
  bash,
};

/** The analysis of a language family. */
export function supportFor(family: Family): LanguageSupport {
  return SUPPORT[family];
}
