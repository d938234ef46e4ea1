import { randomUUID } from "node:crypto";
import type { Answer, Dialect, SimCompletionRequest } from "./dialects/dialect.js";
import { decode, generate } from "./generate.js";
import { answerEdit } from "./next-edit/answer-edit.js";
import { PrefixCache, unitKeys } from "./prefix-cache.js";
import { SlotCache } from "./slot-cache.js";
import { TokenCache } from "./token-cache.js";

// What a simulator answers a valid request with: its tokens, the prompt cache's hit as the dialect counts it
// (DeepSeek's 64-token units per key, llama.cpp's one slot), and the completion prompt lookup generates (or, for a
// next edit, the edit model's text).

/** What a thinking model "thinks" before a next edit: a nominal text, so that thinking costs tokens as it does. */
const THINKING =
  "The user renamed a symbol and is likely to carry the change to its other uses in the region.";

/** Turns checked requests into answers, with the caches a simulator keeps between requests. */
export class Completer {
  readonly #dialect: Dialect;
  readonly #writeOn: boolean;
  readonly #cache = new PrefixCache();
  readonly #slot = new SlotCache();
  readonly #tokens = new TokenCache();

  /** @param writeOn whether to write on past the block at the end of a file (the `writeOn` option). */
  constructor(dialect: Dialect, writeOn: boolean) {
    this.#dialect = dialect;
    this.#writeOn = writeOn;
  }

  /** The answer to `request`; `namespace` (the API key) separates one account's prompt cache from another's. */
  complete(request: SimCompletionRequest, namespace: string): Answer {
    const suffix = request.suffix;
    const promptTokens = this.#tokens.tokens(request.prompt);
    // The FIM template has a hole marker between prompt and suffix; a request without a suffix is a plain completion.
    const suffixTokens = suffix === "" ? undefined : this.#tokens.tokens(suffix);
    const promptTokenCount = promptTokens.length + (suffixTokens === undefined ? 0 : suffixTokens.length + 1);
    let hit: number | undefined;
    if (this.#dialect.cache === "units") {
      hit = this.#cache.account(
        unitKeys(
          namespace,
          { text: request.prompt, tokens: promptTokens },
          suffixTokens === undefined ? undefined : { text: suffix, tokens: suffixTokens },
        ),
      );
    } else if (this.#dialect.cache === "slot") {
      hit = this.#slot.reuse(promptTokens, suffixTokens ?? []);
    }
    const edit = request.edit;
    const generation =
      edit === undefined
        ? generate({
            prompt: request.prompt,
            suffix,
            maxTokens: request.maxTokens,
            stop: request.stop,
            promptTokens,
            writeOn: this.#writeOn,
            temperature: request.temperature,
          })
        : decode(answerEdit(edit.input), request.stop, request.maxTokens, "edit");
    return {
      id: randomUUID(),
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      prompt: request.prompt,
      echo: request.echo,
      logprobs: request.logprobs,
      generation,
      promptTokens: promptTokenCount,
      cacheHitTokens: hit,
      includeUsage: request.includeUsage,
      reasoning: edit?.thinking ? THINKING : "",
    };
  }
}
