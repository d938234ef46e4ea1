/** The `choices[].logprobs` object of a text completion (OpenAI legacy completions shape). */
export interface Logprobs {
  /** The sampled tokens. */
  tokens: string[];
  /** Natural-log probability of each sampled token: negative, fractional. */
  token_logprobs: number[];
  /** Per token, the most likely alternatives with their logprobs: `logprobs` entries, plus the sampled token when it is not among them. */
  top_logprobs: Record<string, number>[];
  /** Per token, its offset in UTF-16 code units from the start of the prompt. */
  text_offset: number[];
}

// Plausible competitors for any position in code or prose.
const ALTERNATIVES = [
  " ",
  "\n",
  "(",
  ")",
  ".",
  ",",
  ";",
  " =",
  " the",
  " return",
  "_",
  " if",
  "{",
  "}",
  " const",
  " a",
  "0",
  "1",
  " +",
  ":",
  '"',
  "'",
  " in",
  " of",
  " to",
  "s",
  "e",
  " self",
  " this",
  "[",
  "]",
  " x",
];

/** Logprobs rounded like real responses, never exactly zero. */
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * Deterministic, plausible logprobs for generated tokens: a pure function of each token and its
 * position. About one token in eight is "not the most likely one", which is when the sampled
 * token appears in `top_logprobs` on top of the `topN` alternatives (so `topN + 1` entries), as
 * DeepSeek documents ("up to logprobs+1 elements").
 *
 * @param tokens - the generated tokens
 * @param topN - the request's `logprobs` (0–20)
 * @param firstOffset - `text_offset` of the first token: the prompt's length, offsets counting from the start of the prompt
 */
export function tokenLogprobs(tokens: readonly string[], topN: number, firstOffset: number): Logprobs {
  const result: Logprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  let offset = firstOffset;
  tokens.forEach((token, position) => {
    let h = Math.imul(position + 1, 0x9e3779b1);
    for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193);
    h ^= h >>> 13;
    h >>>= 0;
    const mostLikely = (h & 7) !== 0;
    const fraction = ((h >>> 3) % 10007) / 10007;
    const logprob = round(mostLikely ? -(0.0005 + fraction * 0.6) : -(1.2 + fraction * 1.5));
    // A null prototype so a token such as "__proto__" stays an ordinary key.
    const top: Record<string, number> = Object.create(null);
    if (mostLikely) top[token] = logprob;
    const wanted = mostLikely ? Math.max(0, topN - 1) : topN;
    let added = 0;
    for (let k = 0; added < wanted && k < ALTERNATIVES.length; k++) {
      const alt = ALTERNATIVES[(h + k) % ALTERNATIVES.length]!;
      if (alt === token) continue;
      top[alt] = mostLikely
        ? round(logprob - 1.5 - added * 0.7 - fraction)
        : round((logprob * (added + 1)) / (wanted + 2));
      added++;
    }
    if (!mostLikely) top[token] = logprob;
    result.tokens.push(token);
    result.token_logprobs.push(logprob);
    result.top_logprobs.push(top);
    result.text_offset.push(offset);
    offset += token.length;
  });
  return result;
}
