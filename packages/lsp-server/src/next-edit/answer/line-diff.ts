import diff from "fast-diff";

/** A run of lines replaced: `old[oldStart, oldEnd)` became `new[newStart, newEnd)` (either run may be empty). */
export interface LineChange {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** The text's lines, each with its "\n" (the last one without, when the text does not end in one); "" has none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", start)) {
    lines.push(text.slice(start, at + 1));
    start = at + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

// Distinct lines are diffed as single UTF-16 code units: the private-use area first, then the BMP below the
// surrogates (fast-diff keeps surrogate pairs whole, so those code units are never used).
const FIRST_CODES = [0xe000, 0xf8ff + 1 - 0xe000] as const;
const THEN_CODES = [0x100, 0xd800 - 0x100] as const;

function codeFor(index: number): string | undefined {
  if (index < FIRST_CODES[1]) return String.fromCharCode(FIRST_CODES[0] + index);
  const rest = index - FIRST_CODES[1];
  return rest < THEN_CODES[1] ? String.fromCharCode(THEN_CODES[0] + rest) : undefined;
}

/**
 * The runs of lines that differ between two lists, in order, the fewest lines changed (Myers, by fast-diff, on the
 * lines encoded one code unit each). Lines compare with their "\n", so a last line losing its newline is a change.
 * Empty when the lists are equal.
 */
export function lineChanges(oldLines: readonly string[], newLines: readonly string[]): LineChange[] {
  const codes = new Map<string, string>();
  const encode = (lines: readonly string[]): string | undefined => {
    let out = "";
    for (const line of lines) {
      let code = codes.get(line);
      if (code === undefined) {
        code = codeFor(codes.size);
        if (code === undefined) return undefined;
        codes.set(line, code);
      }
      out += code;
    }
    return out;
  };
  const a = encode(oldLines);
  const b = encode(newLines);
  if (a === undefined || b === undefined) {
    // More distinct lines than code units: one change over all, still correct.
    return [{ oldStart: 0, oldEnd: oldLines.length, newStart: 0, newEnd: newLines.length }];
  }
  const changes: LineChange[] = [];
  let oldAt = 0;
  let newAt = 0;
  let open: LineChange | undefined;
  for (const [op, text] of diff(a, b)) {
    if (op === diff.EQUAL) {
      if (open) changes.push(open);
      open = undefined;
      oldAt += text.length;
      newAt += text.length;
      continue;
    }
    open ??= { oldStart: oldAt, oldEnd: oldAt, newStart: newAt, newEnd: newAt };
    if (op === diff.DELETE) {
      oldAt += text.length;
      open.oldEnd = oldAt;
    } else {
      newAt += text.length;
      open.newEnd = newAt;
    }
  }
  if (open) changes.push(open);
  return changes;
}
