import { codestral } from "./codestral.js";
import { deepseek } from "./deepseek.js";
import type { ProviderName } from "./info.js";
import { llamacpp } from "./llamacpp.js";
import { ollama } from "./ollama.js";
import { openaiCompatible } from "./openai-compatible.js";
import type { Provider } from "./provider.js";

/** Every provider's adapter, by name. */
export const PROVIDERS: Readonly<Record<ProviderName, Provider>> = {
  deepseek,
  "openai-compatible": openaiCompatible,
  ollama,
  llamacpp,
  codestral,
};
