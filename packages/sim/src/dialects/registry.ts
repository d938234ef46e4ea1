import { codestral } from "./codestral.js";
import { deepseek } from "./deepseek.js";
import type { Dialect, DialectName } from "./dialect.js";
import { llamacpp } from "./llamacpp.js";
import { ollama } from "./ollama.js";
import { openaiCompatible } from "./openai-compatible.js";

/** Every dialect, by name. */
export const DIALECT_BY_NAME: Readonly<Record<DialectName, Dialect>> = {
  deepseek,
  "openai-compatible": openaiCompatible,
  ollama,
  llamacpp,
  codestral,
};
