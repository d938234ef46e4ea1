/**
 * DeepSeek's context cache accounting: "the cache system uses 64 tokens as a storage unit", and
 * only prefixes that start at the first token count.
 */
export const CACHE_UNIT_TOKENS = 64;

// Values charCodeAt never returns (it stops at 0xffff): separators that cannot collide with text.
const NAMESPACE_END = 0x1_0000;
const HOLE = 0x1_0001;

/** A text with its tokens (which concatenate to it). */
export interface TokenizedText {
  text: string;
  tokens: readonly string[];
}

/**
 * Keys of every 64-token prefix of the FIM sequence `prompt tokens, hole marker, suffix tokens`
 * (the hole marker only when there is a suffix).
 *
 * A key hashes the text up to the end of the unit's last token, not the tokens one by one: the
 * tokenizer reads left to right, so two texts that agree up to a token boundary they both have
 * agree on every token before it, and hashing characters in one flat pass is several times
 * cheaper than per token. Two independent 32-bit hashes make a 53-bit key; a collision would only
 * turn a miss into a hit in a simulator, and would take billions of stored units to become likely.
 *
 * @param namespace - keeps caches apart (the API key); hashed first
 * @param prompt - the prompt and its tokens
 * @param suffix - the suffix and its tokens, or `undefined` when the request has no suffix
 * @returns `keys[i]` identifies the first `(i + 1) * 64` tokens
 */
export function unitKeys(namespace: string, prompt: TokenizedText, suffix?: TokenizedText): number[] {
  // One flat function over locals: it reads every character of every request, and a helper
  // class or closure for the hash state made it twice as slow.
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < namespace.length; i++) {
    const c = namespace.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  a = Math.imul(a ^ NAMESPACE_END, 0x01000193);
  b = Math.imul(b ^ NAMESPACE_END, 0x5bd1e995);
  const keys: number[] = [];
  let count = 0;
  for (let p = 0; p < (suffix === undefined ? 1 : 2); p++) {
    const part = p === 0 ? prompt : suffix!;
    if (p === 1) {
      a = Math.imul(a ^ HOLE, 0x01000193);
      b = Math.imul(b ^ HOLE, 0x5bd1e995);
      if (++count % CACHE_UNIT_TOKENS === 0) keys.push(keyOf(a, b));
    }
    const { text, tokens } = part;
    // Characters are hashed when a unit ends, and the whole prompt before the hole marker.
    const flushAt = p === 0 && suffix !== undefined ? tokens.length - 1 : -1;
    let end = 0;
    let hashed = 0;
    for (let t = 0; t < tokens.length; t++) {
      end += tokens[t]!.length;
      const unitEnd = ++count % CACHE_UNIT_TOKENS === 0;
      if (!unitEnd && t !== flushAt) continue;
      for (let i = hashed; i < end; i++) {
        const c = text.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
      }
      hashed = end;
      if (unitEnd) keys.push(keyOf(a, b));
    }
  }
  return keys;
}

/** The hash state as a 53-bit safe integer. */
function keyOf(a: number, b: number): number {
  let mixed = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
  mixed ^= mixed >>> 13;
  return (a >>> 0) * 0x20_0000 + (mixed >>> 11);
}

/**
 * The store of cached 64-token prefix units, bounded.
 *
 * An LRU in two generations: units used go into the young set; when it is full it becomes the
 * old one and the previous old set is dropped. A unit survives at least `capacity / 2` newer
 * units after its last use, and a lookup costs one or two `Set.has` instead of reordering a map.
 */
export class PrefixCache {
  #young = new Set<number>();
  #old = new Set<number>();
  readonly #generation: number;

  /** @param capacity - units kept at most (default 200 000; a unit costs a few tens of bytes) */
  constructor(capacity = 200_000) {
    this.#generation = Math.max(1, Math.floor(capacity / 2));
  }

  /**
   * Counts this request's cache hit, then stores its units, as DeepSeek does once it answered.
   *
   * @param keys - from {@link unitKeys}
   * @returns hit tokens: the longest stored prefix, a multiple of 64
   */
  account(keys: readonly number[]): number {
    let hitUnits = 0;
    for (let i = keys.length - 1; i >= 0; i--) {
      if (this.#young.has(keys[i]!) || this.#old.has(keys[i]!)) {
        hitUnits = i + 1;
        break;
      }
    }
    for (const key of keys) {
      if (this.#young.has(key)) continue;
      this.#young.add(key);
      if (this.#young.size >= this.#generation) {
        this.#old = this.#young;
        this.#young = new Set();
      }
    }
    return hitUnits * CACHE_UNIT_TOKENS;
  }
}
