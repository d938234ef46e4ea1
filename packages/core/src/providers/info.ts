// What is known about each provider before talking to it, without the HTTP client or zod: the language server reads
// this at start-up (which key to ask for, what to call the provider) and loads the client on first use.
import { DEFAULT_MODEL } from "../models.js";

/** DeepSeek's beta base address; FIM completions are only served under `/beta`. */
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com/beta";

/** The providers a ProviderClient speaks to. */
export const PROVIDER_NAMES = ["deepseek", "openai-compatible", "ollama", "llamacpp", "codestral"] as const;

/**
 * - `deepseek`: DeepSeek's FIM Completion (Beta), `POST {base}/completions` (base `…/beta`).
 * - `openai-compatible`: `POST {base}/completions` with `prompt` + `suffix` (SiliconFlow, Ollama's `/v1`, any host
 *   that honours `suffix`).
 * - `ollama`: Ollama's native `POST {base}/api/generate`.
 * - `llamacpp`: llama.cpp's server, `POST {base}/infill`.
 * - `codestral`: Mistral's `POST {base}/fim/completions` (base `https://codestral.mistral.ai/v1`).
 */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** A provider's defaults and needs. */
export interface ProviderInfo {
  /** How people call it: `DeepSeek`, `Ollama`, `llama.cpp`, `Codestral`, `the OpenAI-compatible host`. */
  readonly label: string;
  /** The base URL when none is given; undefined when the user must give one. */
  readonly defaultBaseURL: string | undefined;
  /** The model when none is given; undefined when the user must give one (or, for llama.cpp, none is needed). */
  readonly defaultModel: string | undefined;
  /** Whether a request must name a model. */
  readonly requiresModel: boolean;
  /**
   * The environment variable the key is read from by default. Set exactly for the providers that need a key
   * (DeepSeek, Codestral); undefined for those that do not (a local Ollama or llama.cpp, or a host whose key
   * variable only the user can name).
   */
  readonly apiKeyEnv: string | undefined;
}

/** The model a `provider: "ollama"` setup uses unless told: small, fast, and its template has a suffix. */
export const OLLAMA_DEFAULT_MODEL = "qwen2.5-coder:1.5b-base";
/** The model a `provider: "codestral"` setup uses unless told. */
export const CODESTRAL_DEFAULT_MODEL = "codestral-latest";

/** Each provider's defaults and needs. */
export const PROVIDER_INFO: Readonly<Record<ProviderName, ProviderInfo>> = {
  deepseek: {
    label: "DeepSeek",
    defaultBaseURL: DEEPSEEK_BASE_URL,
    defaultModel: DEFAULT_MODEL,
    requiresModel: true,
    apiKeyEnv: "DEEPSEEK_API_KEY",
  },
  "openai-compatible": {
    label: "the OpenAI-compatible host",
    defaultBaseURL: undefined,
    defaultModel: undefined,
    requiresModel: true,
    apiKeyEnv: undefined,
  },
  ollama: {
    label: "Ollama",
    defaultBaseURL: "http://127.0.0.1:11434",
    defaultModel: OLLAMA_DEFAULT_MODEL,
    requiresModel: true,
    apiKeyEnv: undefined,
  },
  llamacpp: {
    label: "llama.cpp",
    defaultBaseURL: "http://127.0.0.1:8080",
    defaultModel: undefined,
    requiresModel: false,
    apiKeyEnv: undefined,
  },
  codestral: {
    label: "Codestral",
    defaultBaseURL: "https://codestral.mistral.ai/v1",
    defaultModel: CODESTRAL_DEFAULT_MODEL,
    requiresModel: true,
    apiKeyEnv: "CODESTRAL_API_KEY",
  },
};

/** Whether a string names a provider. */
export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}
