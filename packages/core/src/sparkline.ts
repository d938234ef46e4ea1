// A row of block characters for a series of numbers: a month of daily figures in one line of a terminal, where a
// column of 31 numbers would be hard to read.

const BLOCKS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/**
 * One character per value: `null` (no data that day) is a space, 0 the lowest block, and the others scaled to the
 * largest value of the series (`max`, default the series' own), the largest the full block. A series of zeros is
 * all low blocks.
 */
export function sparkline(values: ReadonlyArray<number | null>, max?: number): string {
  const top = max ?? Math.max(0, ...values.filter((v): v is number => v !== null && Number.isFinite(v)));
  return values
    .map((value) => {
      if (value === null || !Number.isFinite(value)) return " ";
      if (top <= 0 || value <= 0) return BLOCKS[0];
      // Anything above zero shows at least the second block, so a small day is told from an empty one.
      const level = Math.ceil((Math.min(value, top) / top) * (BLOCKS.length - 1));
      return BLOCKS[Math.max(1, level)];
    })
    .join("");
}
