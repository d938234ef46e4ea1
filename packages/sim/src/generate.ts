import { filler } from "./filler.js";
import { promptLookup } from "./prompt-lookup.js";
import { tokenize } from "./tokenize.js";

/** Why generation ended, as DeepSeek reports it. The simulator never filters content. */
export type FinishReason = "stop" | "length";

/** Input of {@link generate}. */
export interface GenerateInput {
  /** Text before the cursor. */
  prompt: string;
  /** Text after the cursor (default `""`). */
  suffix?: string | undefined;
  /** Tokens generated at most; reaching it ends with `"length"`. */
  maxTokens: number;
  /** Stop sequences; the text is cut before the first one found (empty strings are ignored). */
  stop?: readonly string[] | undefined;
  /** `tokenize(prompt)`, when the caller already has it. */
  promptTokens?: readonly string[] | undefined;
  /** At the end of a file, copy on past the natural end of the block (see `promptLookup`). Default false. */
  writeOn?: boolean | undefined;
  /**
   * Sampling temperature. Above 0 the copy comes from a farther occurrence of the matched text (the
   * `round(2 × temperature)`-th before the nearest): deterministic, but candidates asked at other temperatures
   * differ where the text has several. Default 0.
   */
  temperature?: number | undefined;
}

/** The simulated completion. */
export interface Generation {
  /** The completion text (without any echoed prompt). */
  text: string;
  /** `tokenize(text)`. */
  tokens: readonly string[];
  /** `"length"` when `maxTokens` cut the text, otherwise `"stop"`. */
  finishReason: FinishReason;
  /** Where the text came from: a prompt-lookup copy, or the no-match filler. */
  source: "prompt" | "suffix" | "filler";
}

/**
 * The simulator's "model": a prompt-lookup copy (or a filler when nothing matches), then the
 * request's stop sequences, then `maxTokens`, in the order a real decoder meets them.
 * Deterministic: the same input always gives the same output.
 */
export function generate(input: GenerateInput): Generation {
  const suffix = input.suffix ?? "";
  const copy = promptLookup(
    input.prompt,
    suffix,
    input.promptTokens ?? tokenize(input.prompt),
    input.writeOn,
    Math.round(2 * (input.temperature ?? 0)),
  );
  let text = copy?.text ?? filler(input.prompt, suffix);
  let cut = -1;
  for (const stop of input.stop ?? []) {
    if (stop === "") continue;
    const at = text.indexOf(stop);
    if (at !== -1 && (cut === -1 || at < cut)) cut = at;
  }
  if (cut !== -1) text = text.slice(0, cut);
  let tokens = tokenize(text);
  let finishReason: FinishReason = "stop";
  if (tokens.length > input.maxTokens) {
    tokens = tokens.slice(0, input.maxTokens);
    text = tokens.join("");
    finishReason = "length";
  }
  return { text, tokens, finishReason, source: copy?.from ?? "filler" };
}
