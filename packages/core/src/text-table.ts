// The text tables of `infill usage`: columns padded to their widest cell, numbers right-aligned.

/** A whole number with thousands separators: `12,345`. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** Rows of cells as a text table: the first column left-aligned, the others right-aligned, two spaces apart. */
export function textTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? "").length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
