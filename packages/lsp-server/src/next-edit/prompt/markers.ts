// The markers Zed's Zeta was trained with (zed-industries/zed, crates/zeta/src/zeta.rs at 6711239433's version;
// crates/zeta_prompt/src/zeta_prompt.rs `mod zeta1`), which Continue's Instinct reuses (continuedev/continue
// d0a3c0b626b5bebc3bef4742eec05a0242be0bab, core/nextEdit/constants.ts) and infill's `deepseek` format borrows.

/** Opens the editable region, alone on its line. */
export const REGION_START = "<|editable_region_start|>";
/** Closes the editable region, alone on its line. */
export const REGION_END = "<|editable_region_end|>";
/** Where the cursor is, inside the region. */
export const CURSOR = "<|user_cursor_is_here|>";
/** Zeta: the excerpt's first line is the file's first line. */
export const START_OF_FILE = "<|start_of_file|>";

/** The region's text with the cursor marker at `cursorOffset` (clamped to the region). */
export function withCursor(region: string, cursorOffset: number): string {
  const at = Math.max(0, Math.min(cursorOffset, region.length));
  return `${region.slice(0, at)}${CURSOR}${region.slice(at)}`;
}

/** The text without one final "\n", as an excerpt writes its last line before a marker or a fence. */
export function withoutFinalNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
