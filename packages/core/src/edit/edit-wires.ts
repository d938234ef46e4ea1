import type { ProviderName } from "../providers/info.js";
import type { EditShape } from "./edit-request.js";
import type { EditWire } from "./edit-wire.js";
import { ollamaChat } from "./ollama-chat.js";
import { deepseekChat, llamacppChat, openaiCompatibleChat } from "./openai-chat.js";
import { llamacppRaw, ollamaRaw, openaiCompatibleRaw } from "./raw-wires.js";

/**
 * Where each provider answers next edits, by shape. DeepSeek has no raw completion for them (its FIM endpoint fills
 * a hole; a next edit rewrites a region), only Chat Prefix Completion; Codestral has only FIM, and none.
 */
export const EDIT_WIRES: Readonly<Record<ProviderName, Partial<Record<EditShape, EditWire>>>> = {
  deepseek: { chat: deepseekChat },
  "openai-compatible": { raw: openaiCompatibleRaw, chat: openaiCompatibleChat },
  ollama: { raw: ollamaRaw, chat: ollamaChat },
  llamacpp: { raw: llamacppRaw, chat: llamacppChat },
  codestral: {},
};
