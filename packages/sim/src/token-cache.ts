import { tokenize } from "./tokenize.js";

/**
 * A bounded memo of {@link tokenize} for long texts.
 *
 * Editors and benchmarks resend the same 8–16 KB prompt window again and again; tokenizing it
 * costs about 0.3 ms, a lookup a few microseconds. Short texts are cheap to tokenize and are not
 * kept. The bound is on characters held, so memory stays flat whatever the traffic.
 */
export class TokenCache {
  readonly #entries = new Map<string, readonly string[]>();
  readonly #maxChars: number;
  readonly #minLength: number;
  #chars = 0;

  /**
   * @param maxChars - total characters of the texts kept (default 4 000 000, about 30 MB with tokens)
   * @param minLength - texts shorter than this (in UTF-16 code units) are not kept (default 512)
   */
  constructor(maxChars = 4_000_000, minLength = 512) {
    this.#maxChars = maxChars;
    this.#minLength = minLength;
  }

  /** The tokens of `text`, from the memo when it holds them. Do not mutate the result. */
  tokens(text: string): readonly string[] {
    if (text.length < this.#minLength) return tokenize(text);
    const hit = this.#entries.get(text);
    if (hit !== undefined) {
      // Re-insert so Map order is least-recently-used first.
      this.#entries.delete(text);
      this.#entries.set(text, hit);
      return hit;
    }
    const tokens = tokenize(text);
    if (text.length > this.#maxChars) return tokens;
    this.#entries.set(text, tokens);
    this.#chars += text.length;
    for (const key of this.#entries.keys()) {
      if (this.#chars <= this.#maxChars) break;
      this.#entries.delete(key);
      this.#chars -= key.length;
    }
    return tokens;
  }
}
