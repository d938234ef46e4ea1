import type { CompletionChoice, CompletionResponse, Usage } from "./schemas.js";

// A completion body of the common shape (choices without logprobs, DeepSeek's usage), checked and copied by hand
// as CompletionResponseSchema would: parsing it with the schema costs more than JSON.parse of the body, on every
// answer of a batch. It gives exactly the schema's output (known keys in the schema's order, then the others in the
// body's; property-tested against the schema) or undefined, and then the schema decides and words the error. The
// input is JSON.parse's output: own keys only, no undefined values.

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON.parse gives Infinity for 1e999, which the schema's number refuses. */
function isNumber(value: unknown): value is number {
  return Number.isFinite(value);
}

/**
 * Copies the keys of `from` that `known` does not list onto `to`, in their order; false for a `__proto__` key,
 * which an assignment would turn into the copy's prototype (the schema decides).
 */
function copyRest(from: Json, to: Json, known: (key: string) => boolean): boolean {
  for (const key in from) {
    if (known(key)) continue;
    if (key === "__proto__") return false;
    to[key] = from[key];
  }
  return true;
}

const bodyKey = (key: string): boolean =>
  key === "id" ||
  key === "choices" ||
  key === "created" ||
  key === "model" ||
  key === "system_fingerprint" ||
  key === "object" ||
  key === "usage";

const choiceKey = (key: string): boolean =>
  key === "text" || key === "index" || key === "finish_reason" || key === "logprobs";

const usageKey = (key: string): boolean =>
  key === "completion_tokens" ||
  key === "prompt_tokens" ||
  key === "prompt_cache_hit_tokens" ||
  key === "prompt_cache_miss_tokens" ||
  key === "total_tokens" ||
  key === "completion_tokens_details";

const detailsKey = (key: string): boolean => key === "reasoning_tokens";

/** What CompletionResponseSchema gives for parsed JSON of the common shape; undefined when it must decide. */
export function fastCompletionBody(json: unknown): CompletionResponse | undefined {
  if (!isObject(json)) return undefined;
  const { id, choices: given, created, model, object } = json;
  if (typeof id !== "string" || !Array.isArray(given) || !isNumber(created) || typeof model !== "string") {
    return undefined;
  }
  const choices: CompletionChoice[] = [];
  for (const entry of given) {
    const choice = copyChoice(entry);
    if (choice === undefined) return undefined;
    choices.push(choice);
  }
  const output: Json = { id, choices, created, model };
  if ("system_fingerprint" in json) {
    const fingerprint = json.system_fingerprint;
    if (fingerprint !== null && typeof fingerprint !== "string") return undefined;
    output.system_fingerprint = fingerprint;
  }
  if (typeof object !== "string") return undefined;
  output.object = object;
  const usage = copyUsage(json.usage);
  if (usage === undefined) return undefined;
  output.usage = usage;
  return copyRest(json, output, bodyKey) ? (output as CompletionResponse) : undefined;
}

function copyChoice(entry: unknown): CompletionChoice | undefined {
  if (!isObject(entry) || typeof entry.text !== "string") return undefined;
  const choice: Json = { text: entry.text };
  if ("index" in entry) {
    if (!isNumber(entry.index)) return undefined;
    choice.index = entry.index;
  }
  if ("finish_reason" in entry) {
    const reason = entry.finish_reason;
    if (reason !== null && typeof reason !== "string") return undefined;
    choice.finish_reason = reason;
  }
  if ("logprobs" in entry) {
    // Log probabilities are rare, and their shape is the schema's to check.
    if (entry.logprobs !== null) return undefined;
    choice.logprobs = null;
  }
  return copyRest(entry, choice, choiceKey) ? (choice as CompletionChoice) : undefined;
}

function copyUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const { completion_tokens, prompt_tokens, total_tokens } = value;
  if (!isNumber(completion_tokens) || !isNumber(prompt_tokens)) return undefined;
  const usage: Json = { completion_tokens, prompt_tokens };
  if ("prompt_cache_hit_tokens" in value) {
    if (!isNumber(value.prompt_cache_hit_tokens)) return undefined;
    usage.prompt_cache_hit_tokens = value.prompt_cache_hit_tokens;
  }
  if ("prompt_cache_miss_tokens" in value) {
    if (!isNumber(value.prompt_cache_miss_tokens)) return undefined;
    usage.prompt_cache_miss_tokens = value.prompt_cache_miss_tokens;
  }
  if (!isNumber(total_tokens)) return undefined;
  usage.total_tokens = total_tokens;
  if ("completion_tokens_details" in value) {
    const details = value.completion_tokens_details;
    if (details === null) usage.completion_tokens_details = null;
    else {
      const copied = copyDetails(details);
      if (copied === undefined) return undefined;
      usage.completion_tokens_details = copied;
    }
  }
  return copyRest(value, usage, usageKey) ? (usage as Usage) : undefined;
}

function copyDetails(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const details: Json = {};
  if ("reasoning_tokens" in value) {
    if (!isNumber(value.reasoning_tokens)) return undefined;
    details.reasoning_tokens = value.reasoning_tokens;
  }
  return copyRest(value, details, detailsKey) ? details : undefined;
}
