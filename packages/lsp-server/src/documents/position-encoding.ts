/**
 * How a position's `character` counts (LSP 3.17 `PositionEncodingKind`): UTF-16 code units (the LSP default and
 * our internal unit), UTF-8 bytes, or Unicode code points.
 */
export type PositionEncoding = "utf-16" | "utf-8" | "utf-32";

const SUPPORTED: ReadonlySet<string> = new Set<PositionEncoding>(["utf-16", "utf-8", "utf-32"]);

/**
 * Picks the server's `positionEncoding` from the client's `general.positionEncodings`: the first one the client
 * lists (in its order of preference) that we support; `"utf-16"` when the list is absent or holds none we know,
 * since every client must accept UTF-16.
 */
export function negotiateEncoding(clientEncodings?: readonly string[]): PositionEncoding {
  for (const encoding of clientEncodings ?? []) {
    if (SUPPORTED.has(encoding)) return encoding as PositionEncoding;
  }
  return "utf-16";
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** UTF-16 width (1 or 2) of the code point starting at `i`; a lone surrogate counts as one code point. */
function utf16Width(text: string, i: number): 1 | 2 {
  return isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
}

/** Width of the code point at `i` in the target encoding. A lone surrogate is 3 UTF-8 bytes (U+FFFD). */
function unitWidth(text: string, i: number, encoding: "utf-8" | "utf-32"): number {
  if (encoding === "utf-32") return 1;
  const unit = text.charCodeAt(i);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return utf16Width(text, i) === 2 ? 4 : 3;
}

/**
 * Converts a `character` offset on one line from the client's encoding to UTF-16 code units. An offset inside a
 * multi-byte UTF-8 sequence rounds down to the start of that code point; past the line end it means the line
 * end; a fraction rounds down; negative or NaN means 0 (validate positions first if those must be rejected).
 * @param lineText the line's text without its terminator.
 * @param character the offset in `encoding` units.
 */
export function fromClientCharacter(lineText: string, character: number, encoding: PositionEncoding): number {
  if (!(character > 0)) return 0;
  if (encoding === "utf-16") return Math.min(Math.floor(character), lineText.length);
  let units = 0;
  let i = 0;
  while (i < lineText.length) {
    units += unitWidth(lineText, i, encoding);
    if (units > character) break;
    i += utf16Width(lineText, i);
  }
  return i;
}

/**
 * Converts a UTF-16 `character` offset on one line to the client's encoding. An offset between the two halves of
 * a surrogate pair rounds down to before the pair; past the line end it means the line end; a fraction rounds
 * down; negative or NaN means 0.
 * @param lineText the line's text without its terminator.
 * @param utf16 the offset in UTF-16 code units.
 */
export function toClientCharacter(lineText: string, utf16: number, encoding: PositionEncoding): number {
  if (!(utf16 > 0)) return 0;
  const end = Math.min(Math.floor(utf16), lineText.length);
  if (encoding === "utf-16") return end;
  let units = 0;
  let i = 0;
  while (i < end) {
    const width = utf16Width(lineText, i);
    if (i + width > end) break;
    units += unitWidth(lineText, i, encoding);
    i += width;
  }
  return units;
}
