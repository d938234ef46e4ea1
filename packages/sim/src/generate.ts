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
  /** Where the text came from: a prompt-lookup copy, the no-match filler, or the edit model (a next edit). */
  source: "prompt" | "suffix" | "filler" | "edit";
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
  const text = copy?.text ?? filler(input.prompt, suffix);
  return decode(text, input.stop ?? [], input.maxTokens, copy?.from ?? "filler");
}

/**
 * What a decoder makes of a text the model would write: cut before the first stop sequence found (empty ones are
 * ignored), then at `maxTokens` tokens (`"length"`).
 */
export function decode(
  written: string,
  stop: readonly string[],
  maxTokens: number,
  source: Generation["source"],
): Generation {
  let text = written;
  let cut = -1;
  for (const sequence of stop) {
    if (sequence === "") continue;
    const at = text.indexOf(sequence);
    if (at !== -1 && (cut === -1 || at < cut)) cut = at;
  }
  if (cut !== -1) text = text.slice(0, cut);
  let tokens = tokenize(text);
  let finishReason: FinishReason = "stop";
  if (tokens.length > maxTokens) {
    tokens = tokens.slice(0, maxTokens);
    text = tokens.join("");
    finishReason = "length";
  }
  return { text, tokens, finishReason, source };
}
