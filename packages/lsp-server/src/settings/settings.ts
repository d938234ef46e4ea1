import type * as z from "zod/mini";
import type { FIELDS, SettingsLayer } from "./settings-schema.js";

export type { SettingsLayer } from "./settings-schema.js";

// Types come from the schemas (settings-schema.ts); this module holds what is needed before they are loaded.

/**
 * The effective settings: every field present (`model`, `baseUrl`, `apiKeyEnv` undefined mean the provider's
 * default).
 */
export type Settings = {
  [K in Exclude<
    keyof typeof FIELDS,
    ProviderDefaulted | "context" | "usage" | "hotStreak" | "nextEdit"
  >]: z.infer<(typeof FIELDS)[K]>;
} & { [K in ProviderDefaulted]: string | undefined } & {
  context: ContextSettings;
  usage: UsageCountSettings;
  hotStreak: { maxTokens: number };
  nextEdit: NextEditConfig;
};

type NextEditLayer = z.infer<(typeof FIELDS)["nextEdit"]>;

/**
 * Next-edit settings (see `FIELDS.nextEdit`): `enabled`, `debounceMs` and `maxRegionLines` always present; the
 * provider, format, model, base URL and key variable undefined when they default to the provider's (or, for the
 * provider, the top-level one).
 */
export type NextEditConfig = {
  [K in "enabled" | "debounceMs" | "maxRegionLines"]-?: NonNullable<NextEditLayer[K]>;
} & { [K in "provider" | "format" | "model" | "baseUrl" | "apiKeyEnv"]: NextEditLayer[K] | undefined };

/** Usage counting settings, every key present (see `FIELDS.usage`). */
export type UsageCountSettings = {
  [K in keyof z.infer<(typeof FIELDS)["usage"]>]-?: NonNullable<z.infer<(typeof FIELDS)["usage"]>[K]>;
};

/** Settings whose default depends on the provider. */
type ProviderDefaulted = "model" | "baseUrl" | "apiKeyEnv";

/** Repository context settings, every key present (see `FIELDS.context`). */
export type ContextSettings = {
  [K in keyof z.infer<(typeof FIELDS)["context"]>]-?: NonNullable<z.infer<(typeof FIELDS)["context"]>[K]>;
};

/** Built-in defaults, with the environment's `INFILL_MODEL` and `INFILL_BASE_URL` taken into account. */
export function defaultSettings(env: NodeJS.ProcessEnv): Settings {
  return {
    provider: "deepseek",
    model: env.INFILL_MODEL || undefined,
    baseUrl: env.INFILL_BASE_URL || undefined,
    apiKeyEnv: undefined,
    allowInsecureHttp: false,
    maxTokens: 256,
    temperature: 0,
    debounceMs: 100,
    adaptiveDebounce: true,
    maxConcurrent: 4,
    preconnect: true,
    hotStreak: { maxTokens: 128 },
    prefetch: true,
    alternatives: 1,
    contextTokens: 4096,
    lineMode: "auto",
    enable: true,
    languages: {},
    timeoutMs: 10_000,
    logLevel: "warn",
    metrics: false,
    context: { enabled: true, maxTokens: 1024, exclude: [], holdout: 0, typeDefinitionMs: 50 },
    grammarIdleSeconds: 600,
    prices: {},
    usage: { persist: true, retentionChecks: [30, 120, 300, 600] },
    nextEdit: {
      enabled: false,
      provider: undefined,
      format: undefined,
      model: undefined,
      baseUrl: undefined,
      apiKeyEnv: undefined,
      debounceMs: 300,
      maxRegionLines: 40,
    },
  };
}

/** Settings whose value is an object merged key by key across layers (a layer need not repeat the others). */
const MERGED_BY_KEY = new Set<string>(["context", "usage", "hotStreak", "nextEdit"]);

/** Layer settings: defaults < initializationOptions < workspace configuration. */
export function mergeSettings(base: Settings, ...layers: SettingsLayer[]): Settings {
  const merged: Settings = { ...base };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const target = merged as Record<string, unknown>;
      target[key] = MERGED_BY_KEY.has(key)
        ? { ...(target[key] as object), ...definedOnly(value as object) }
        : value;
    }
  }
  return merged;
}

/** Whether completions are on for a document of this LSP language id. */
export function isEnabledFor(settings: Settings, languageId: string): boolean {
  if (!settings.enable) return false;
  return settings.languages[languageId] ?? settings.languages["*"] ?? true;
}

function definedOnly(value: object): object {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
