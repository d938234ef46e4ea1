// zod's "mini" build: the same validation without the method-chaining API, and less to evaluate. This module is
// loaded after `initialize` has been answered (see settings-store.ts), so validation costs nothing at start-up.
import * as z from "zod/mini";
import { LOG_LEVELS } from "../log/logger.js";
import { describeIssue } from "./issue-message.js";

/** Where completions come from: `sim` (the embedded simulator) and the providers of `@infill/core`. */
const PROVIDERS = ["deepseek", "sim", "openai-compatible", "ollama", "llamacpp", "codestral"] as const;

/** Where next edits may come from: the providers that take an edit model's prompt (not Codestral: FIM only). */
const NEXT_EDIT_PROVIDERS = ["deepseek", "sim", "openai-compatible", "ollama", "llamacpp"] as const;

/** The prompt formats of the edit models next edits speak (see `next-edit/prompt/`). */
export const NEXT_EDIT_FORMATS = ["zeta", "sweep", "instinct", "deepseek"] as const;

/** An environment variable's name. */
const envName = () =>
  z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable's name"));

/** Every setting and its validation; each is checked on its own so one bad value does not void the others. */
export const FIELDS = {
  /**
   * `deepseek` (the API, needs `DEEPSEEK_API_KEY`), `sim` (the embedded `@infill/sim`, no key, no network),
   * `openai-compatible`, `ollama`, `llamacpp` or `codestral` (needs `CODESTRAL_API_KEY`). Default `deepseek`.
   */
  provider: z.enum(PROVIDERS),
  /** Model id sent upstream. Default `INFILL_MODEL`, else the provider's (`deepseek-v4-flash`…). */
  model: z.string().check(z.minLength(1)),
  /** API base URL. Default `INFILL_BASE_URL`, else the provider's (`https://api.deepseek.com/beta`…). */
  baseUrl: z.url(),
  /**
   * The name of the environment variable that holds the key (a name, never the key: keys stay out of settings
   * files). Default: the provider's (`DEEPSEEK_API_KEY`, `CODESTRAL_API_KEY`; none for the others).
   */
  apiKeyEnv: envName(),
  /** Allow plain http to a host other than this machine (a LAN Ollama, say). Default false. */
  allowInsecureHttp: z.boolean(),
  /** Upper bound of generated tokens per request (FIM allows at most 4096). Default 256. */
  maxTokens: z.int().check(z.gte(1), z.lte(4096)),
  /** Sampling temperature, 0..2. Default 0 (DeepSeek recommends 0 for code). */
  temperature: z.number().check(z.gte(0), z.lte(2)),
  /**
   * The longest quiet time after a request before going upstream, in ms; 0 = none. With `adaptiveDebounce` the
   * wait is learned from the document's typing cadence, up to this; without, it is this. Default 100.
   */
  debounceMs: z.int().check(z.gte(0), z.lte(5000)),
  /**
   * Learn each document's typing cadence and wait just longer than the gap between keystrokes (at most
   * `debounceMs`), so a burst costs one request and the last keystroke waits little. Default true.
   */
  adaptiveDebounce: z.boolean(),
  /** The most upstream requests in flight at once, over every document; the newest waiting goes first. Default 4. */
  maxConcurrent: z.int().check(z.gte(1), z.lte(64)),
  /**
   * Open the connection to the API (DNS, TCP, TLS) after `initialize` and again when it was closed for being idle,
   * so the first completion does not wait for it. Default true.
   */
  preconnect: z.boolean(),
  /**
   * The hot streak, merged key by key: `maxTokens` (tokens read past the end of a block shown, up to the request's
   * `maxTokens`, and kept as the next suggestions, served from memory once the shown one is accepted; 0 turns it
   * off; default 128).
   */
  hotStreak: z.strictObject({ maxTokens: z.optional(z.int().check(z.gte(0), z.lte(4096))) }),
  /**
   * Once a suggestion is accepted and nothing is remembered for the new cursor, ask for the next one at once (no
   * debounce), so it is on its way while the user reads what they took. Default true.
   */
  prefetch: z.boolean(),
  /**
   * Candidates an invoked request (a key or command, never typing: each costs a request) may answer, 1–5: the
   * others are asked at higher temperatures, ranked by mean token log probability where the provider gives it,
   * duplicates dropped. Editors cycle through them (or list them in the menu). Default 1.
   */
  alternatives: z.int().check(z.gte(1), z.lte(5)),
  /** Token budget of prompt + suffix sent upstream. Default 4096. */
  contextTokens: z.int().check(z.gte(128), z.lte(100_000)),
  /** `auto` (single line mid-line, a block on an empty line), `single-line` or `multi-line`. Default `auto`. */
  lineMode: z.enum(["auto", "single-line", "multi-line"]),
  /** Master switch. Default true. */
  enable: z.boolean(),
  /** Per-language switch by LSP language id; `"*"` is the fallback. Default `{}` (all on). */
  languages: z.record(z.string(), z.boolean()),
  /** Upper bound of one upstream request, in ms. Default 10000. */
  timeoutMs: z.int().check(z.gte(100), z.lte(600_000)),
  /** Verbosity of `window/logMessage`. Default `warn`. */
  logLevel: z.enum(LOG_LEVELS),
  /** Send a `$/infill/metrics` notification after each answered completion (latency, usage). Default false. */
  metrics: z.boolean(),
  /**
   * Repository context: declarations of imported names and similar code from other files, at the start of the
   * prompt. Each key is optional in a layer and merged key by key: `enabled` (default true), `maxTokens` (the
   * block's budget, in estimated tokens, taken out of `contextTokens`; default 1024), `exclude` (gitignore-style
   * patterns of files never read or sent, on top of `.gitignore` and the built-in secret patterns; default []),
   * `holdout` (the share of requests, 0..1, sent without the block to measure what it earns, chosen per region of a
   * document and day so the prompt cache keeps hitting; default 0), `typeDefinitionMs` (how long a request waits
   * for the editor's language servers to say where the type of the receiver at the cursor is declared, through
   * `infill/typeDefinitions` with clients that offer it, in ms (the request's debounce when longer); a later answer
   * serves the next request; 0 never asks; default 50).
   */
  context: z.strictObject({
    enabled: z.optional(z.boolean()),
    maxTokens: z.optional(z.int().check(z.gte(0), z.lte(100_000))),
    exclude: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(1000))),
    holdout: z.optional(z.number().check(z.gte(0), z.lte(1))),
    typeDefinitionMs: z.optional(z.int().check(z.gte(0), z.lte(2000))),
  }),
  /**
   * How long a tree-sitter grammar stays loaded after a document of its language last used it, in seconds; then its
   * trees are dropped, and once no grammar is left the runtime's memory is given back (the next document of such a
   * language loads them again). 0 keeps grammars for good. Default 600.
   */
  grammarIdleSeconds: z.int().check(z.gte(0), z.lte(604_800)),
  /**
   * Prices in US dollars per million tokens by model id, `{ cacheHit, cacheMiss, output }`, replacing the built-in
   * entry of a model or adding one (another provider's model, a discount). Default `{}`.
   */
  prices: z.record(
    z.string().check(z.minLength(1)),
    z.strictObject({ cacheHit: dollars(), cacheMiss: dollars(), output: dollars() }),
  ),
  /**
   * Next-edit suggestions (the change the user will make next, near the cursor), merged key by key: `enabled`
   * (default false: off until configured), `provider` (`deepseek`, `sim`, `ollama`, `llamacpp`,
   * `openai-compatible`; default: the `provider` setting), `format` (`zeta`, `sweep`, `instinct`, `deepseek`: the
   * prompt the model was trained on; default `deepseek` for DeepSeek and the sim, required otherwise), `model`,
   * `baseUrl`, `apiKeyEnv` (as the top-level ones, for the edit model; default: the provider's), `debounceMs` (the
   * longest pause after an edit before asking, learned from the typing like `debounceMs`; default 300),
   * `maxRegionLines` (the most lines the model may rewrite around the cursor; default 40).
   */
  nextEdit: z.strictObject({
    enabled: z.optional(z.boolean()),
    provider: z.optional(z.enum(NEXT_EDIT_PROVIDERS)),
    format: z.optional(z.enum(NEXT_EDIT_FORMATS)),
    model: z.optional(z.string().check(z.minLength(1))),
    baseUrl: z.optional(z.url()),
    apiKeyEnv: z.optional(envName()),
    debounceMs: z.optional(z.int().check(z.gte(0), z.lte(5000))),
    maxRegionLines: z.optional(z.int().check(z.gte(3), z.lte(400))),
  }),
  /**
   * Usage counting, merged key by key: `persist` (write each day's totals, counts and tokens only, to
   * `$XDG_STATE_HOME/infill/usage/YYYY-MM.jsonl` for `infill usage`; default true), `retentionChecks` (when to check
   * how much of an accepted suggestion is still there, in seconds after it was taken, at most 8 of them, each
   * above 0 and at most a day; default [30, 120, 300, 600]).
   */
  usage: z.strictObject({
    persist: z.optional(z.boolean()),
    retentionChecks: z.optional(z.array(z.number().check(z.gt(0), z.lte(86_400))).check(z.maxLength(8))),
  }),
};

/** A price per million tokens, in US dollars. */
function dollars() {
  return z.number().check(z.gte(0), z.lte(10_000));
}

/**
 * One layer of settings as a user writes it (in `initializationOptions` or the `infill` section of
 * `workspace/configuration`): every key optional, unknown keys refused.
 */
export const SettingsLayerSchema = z.strictObject(
  Object.fromEntries(Object.entries(FIELDS).map(([key, schema]) => [key, z.optional(schema)])) as {
    [K in keyof typeof FIELDS]: z.ZodMiniOptional<(typeof FIELDS)[K]>;
  },
);

/** A user-written settings layer. */
export type SettingsLayer = z.infer<typeof SettingsLayerSchema>;

/** A layer as read: the valid keys, one message per key that was refused (naming it), and the known keys
 * whose values were refused (their last good value should be kept). */
export interface LayerResult {
  layer: SettingsLayer;
  problems: string[];
  rejected: string[];
}

/**
 * Validate one layer, key by key: `null`/`undefined` is an empty layer; unknown keys and invalid values are
 * refused with a message naming the key and what it accepts (`provider: expected one of "deepseek", "sim"`), and
 * the valid keys are kept.
 */
export function parseLayer(raw: unknown, source: string): LayerResult {
  if (raw === null || raw === undefined) return { layer: {}, problems: [], rejected: [] };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      layer: {},
      problems: [`infill: ignoring ${source}: expected an object of settings`],
      rejected: [],
    };
  }
  const layer: Record<string, unknown> = {};
  const problems: string[] = [];
  const rejected: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: `constructor` or `__proto__` is not a setting.
    const schema = Object.hasOwn(FIELDS, key) ? FIELDS[key as keyof typeof FIELDS] : undefined;
    if (!schema) {
      problems.push(`infill: ignoring ${source}: unknown setting "${key}"`);
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) layer[key] = result.data;
    else {
      rejected.push(key);
      const reasons = result.error.issues.map(
        (issue) => `${[key, ...issue.path.map(String)].join(".")}: ${describeIssue(issue)}`,
      );
      problems.push(`infill: ignoring ${source}: ${reasons.join("; ")}`);
    }
  }
  return { layer: layer as SettingsLayer, problems, rejected };
}
