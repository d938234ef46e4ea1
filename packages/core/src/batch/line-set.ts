// A set of line numbers as bits: which lines of the input are a shard's, found by the first pass over it, so that
// the second pass can pass over the others without parsing them again (a bit a line: 1.25 MB for ten million).

/** Line numbers (positive integers), one bit each. */
export class LineSet {
  #bits = new Uint8Array(1024);

  /** Adds line `line`. */
  add(line: number): void {
    const byte = line >>> 3;
    if (byte >= this.#bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.#bits.length * 2));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    this.#bits[byte] = (this.#bits[byte] as number) | (1 << (line & 7));
  }

  /** Whether line `line` was added. */
  has(line: number): boolean {
    const byte = line >>> 3;
    return byte < this.#bits.length && ((this.#bits[byte] as number) & (1 << (line & 7))) !== 0;
  }
}
