import type { NextEditConfig, Settings } from "../settings/settings.js";

/** Where next edits come from and how they are asked, resolved from the settings. */
export interface EditConfig {
  provider: NonNullable<NextEditConfig["provider"]>;
  format: NonNullable<NextEditConfig["format"]>;
  model: string | undefined;
  baseUrl: string | undefined;
  apiKeyEnv: string | undefined;
}

/**
 * The next-edit provider and format of the settings: `nextEdit.provider`, else the completion provider; the format
 * `nextEdit.format`, else `deepseek` for DeepSeek and the sim (they speak it), and required for the others (the
 * prompt must be the one the local model was trained on); the base URL and key variable of the completion provider
 * when it is the same one. A problem, naming the setting, when they cannot work.
 */
export function editConfig(settings: Settings): EditConfig | { problem: string } {
  const next = settings.nextEdit;
  const provider = next.provider ?? (settings.provider === "codestral" ? undefined : settings.provider);
  if (!provider) {
    return {
      problem:
        'infill (next edits): Codestral has no next-edit model: set "nextEdit.provider" ("deepseek", "sim", "ollama", "llamacpp" or "openai-compatible"); next edits are off until then.',
    };
  }
  const format = next.format ?? (provider === "deepseek" || provider === "sim" ? "deepseek" : undefined);
  if (!format) {
    return {
      problem: `infill (next edits): "nextEdit.format" is required with the next-edit provider "${provider}": set it to the prompt the edit model was trained on ("zeta", "sweep", "instinct" or "deepseek"); next edits are off until then.`,
    };
  }
  const same = provider === settings.provider;
  return {
    provider,
    format,
    model: next.model,
    baseUrl: next.baseUrl ?? (same ? settings.baseUrl : undefined),
    apiKeyEnv: next.apiKeyEnv ?? (same ? settings.apiKeyEnv : undefined),
  };
}
