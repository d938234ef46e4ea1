import { PROVIDER_INFO, PROVIDER_NAMES } from "@infill/core/provider-info";

/** One provider the server knows, as `infill/providers` answers it. */
export interface CatalogueEntry {
  /** The `provider` setting's value. */
  name: string;
  /** How people call it: `DeepSeek`, `Ollama`… */
  label: string;
  /** Where requests go unless `baseUrl` says otherwise; null when the user must set it. */
  baseUrl: string | null;
  /** The model unless `model` says otherwise; null when the user must set it (or the server picks it). */
  model: string | null;
  /** The environment variable the key is read from unless `apiKeyEnv` says otherwise; null for none. */
  apiKeyEnv: string | null;
  /** Whether it runs on this machine by default (a refused connection means it is not started). */
  local: boolean;
}

/**
 * The providers the server speaks to, with their defaults: what `:checkhealth` shows without keeping a table of its
 * own. The embedded simulator comes first.
 */
export function providerCatalogue(): CatalogueEntry[] {
  const sim: CatalogueEntry = {
    name: "sim",
    label: "the embedded simulator",
    baseUrl: null,
    model: PROVIDER_INFO.deepseek.defaultModel ?? null,
    apiKeyEnv: null,
    local: true,
  };
  return [
    sim,
    ...PROVIDER_NAMES.map((name) => {
      const info = PROVIDER_INFO[name];
      return {
        name,
        label: info.label,
        baseUrl: info.defaultBaseURL ?? null,
        model: info.defaultModel ?? null,
        apiKeyEnv: info.apiKeyEnv ?? null,
        local: info.defaultBaseURL !== undefined && new URL(info.defaultBaseURL).hostname === "127.0.0.1",
      };
    }),
  ];
}
