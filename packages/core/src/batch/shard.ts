// Which records a shard of a batch takes, when N processes (on N machines) share one dataset: the record whose key
// hashes to K, modulo N, is shard K's. The hash is FNV-1a (32-bit) over the UTF-8 bytes of the record's key, the
// text every batch file already knows it by (resume.ts's recordKey): the id's JSON text (`"t1"` with its quotes for a
// string id, `42` for an integer one), or `line:N` for an input line with no id to read. Both are defined by the
// ECMAScript spec (JSON.stringify, well-formed since ES2019), and the hash by its own few lines, so a record goes to
// the same shard on every run, machine and Node version, and a splitter in another language can agree with it.
// Every occurrence of an id goes to one shard, so each shard finds its own duplicate ids. Pure.

/** One shard of N: the records whose key hashes to `index`. */
export interface BatchShard {
  /** This shard, from 0. */
  index: number;
  /** How many shards share the dataset, 1 or more. */
  count: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a, 32-bit, over the UTF-8 bytes of `text`: an unsigned integer. */
export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      hash = Math.imul(hash ^ code, FNV_PRIME);
      continue;
    }
    // A surrogate pair is one code point, four bytes; a lone surrogate (which JSON.stringify never leaves in its
    // text) is encoded as U+FFFD, as TextEncoder does.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i += 1;
      } else code = 0xfffd;
    } else if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    for (const byte of utf8(code)) hash = Math.imul(hash ^ byte, FNV_PRIME);
  }
  return hash >>> 0;
}

function utf8(code: number): number[] {
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return [
    0xf0 | (code >> 18),
    0x80 | ((code >> 12) & 0x3f),
    0x80 | ((code >> 6) & 0x3f),
    0x80 | (code & 0x3f),
  ];
}

/** The shard (0 to count − 1) of a record known by `key` (see resume.ts's recordKey). */
export function shardOf(key: string, count: number): number {
  return count === 1 ? 0 : fnv1a(key) % count;
}

/**
 * Checks a shard: whole numbers, 0 ≤ index < count.
 * @param name how the caller calls it in messages (`shard`, `--shard`).
 * @throws {RangeError} naming the part at fault.
 */
export function checkShard(shard: BatchShard, name = "shard"): BatchShard {
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`${name}.count must be a positive integer, got ${count}`);
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new RangeError(`${name}.index must be an integer from 0 to ${count - 1} (count − 1), got ${index}`);
  }
  return { index, count };
}
