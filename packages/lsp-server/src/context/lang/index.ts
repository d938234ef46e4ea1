import type { Family, LanguageSupport } from "../types.js";
import { bash } from "./bash.js";
import { c, cpp } from "./c.js";
import { csharp } from "./csharp.js";
import { elixir } from "./elixir.js";
import { go } from "./go.js";
import { java } from "./java.js";
import { kotlin } from "./kotlin.js";
import { lua } from "./lua.js";
import { php } from "./php.js";
import { python } from "./python.js";
import { ruby } from "./ruby.js";
import { rust } from "./rust.js";
import { scala } from "./scala.js";
import { swift } from "./swift.js";
import { typescript } from "./typescript.js";
import { zig } from "./zig.js";

export {
  bash,
  c,
  cpp,
  csharp,
  elixir,
  go,
  java,
  kotlin,
  lua,
  php,
  python,
  ruby,
  rust,
  scala,
  swift,
  typescript,
  zig,
};

/** The families parsed with a tree-sitter grammar (the others have a hand-written parser). */
export const SYNTAX_SUPPORTS = {
  c,
  cpp,
  java,
  csharp,
  ruby,
  php,
  bash,
  kotlin,
  zig,
  swift,
  scala,
  elixir,
} as const;

/** Every family with a parser (OCaml has its resolution in `../resolve/` but no grammar shipped). */
const SUPPORT: Readonly<Partial<Record<Family, LanguageSupport>>> = {
  typescript,
  python,
  go,
  rust,
  lua,
  ...SYNTAX_SUPPORTS,
};

/** The analysis of a language family, or undefined when it has no parser yet. */
export function supportFor(family: Family): LanguageSupport | undefined {
  return SUPPORT[family];
}
