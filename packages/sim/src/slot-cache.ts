/**
 * llama.cpp's prompt reuse, for one slot: a request reuses the longest token prefix its sequence (prompt, a hole
 * marker, suffix) shares with the previous request's, and reports it as `timings.cache_n`.
 */
export class SlotCache {
  #previous: readonly string[] = [];

  /**
   * Counts the tokens reused from the previous request and remembers this one.
   *
   * @param prompt - the prompt's tokens
   * @param suffix - the suffix's tokens (empty for none)
   * @returns how many leading tokens of this request's sequence the previous one had
   */
  reuse(prompt: readonly string[], suffix: readonly string[]): number {
    // A token that no text can produce stands for the hole between prompt and suffix.
    const sequence = suffix.length === 0 ? prompt : [...prompt, "\u{10FFFF}hole", ...suffix];
    const previous = this.#previous;
    const limit = Math.min(previous.length, sequence.length);
    let shared = 0;
    while (shared < limit && previous[shared] === sequence[shared]) shared++;
    this.#previous = sequence;
    return shared;
  }
}
