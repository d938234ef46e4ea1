/** A parenthesised list in a line: its items as written (spaces kept) and where each starts, and its `)`. */
export interface ArgumentList {
  items: string[];
  /** The offset in the line where each item starts. */
  starts: number[];
  /** The offset of the closing `)`. */
  close: number;
}

const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const QUOTES = new Set(['"', "'", "`"]);

/**
 * The list whose `(` is at `open`: split at the commas outside nested brackets and string literals. `undefined` when
 * the line does not close it. An empty list (`()`, or only spaces) has no items.
 */
export function argumentListAt(line: string, open: number): ArgumentList | undefined {
  const closers: string[] = [")"];
  const items: string[] = [];
  const starts: number[] = [];
  let start = open + 1;
  for (let at = open + 1; at < line.length; at++) {
    const char = line[at] as string;
    if (QUOTES.has(char)) {
      at = endOfString(line, at);
      continue;
    }
    if (char in OPENERS) closers.push(OPENERS[char] as string);
    else if (char === closers.at(-1)) {
      closers.pop();
      if (closers.length === 0) {
        const last = line.slice(start, at);
        if (items.length > 0 || last.trim() !== "") {
          items.push(last);
          starts.push(start);
        }
        return { items, starts, close: at };
      }
    } else if (char === "," && closers.length === 1) {
      items.push(line.slice(start, at));
      starts.push(start);
      start = at + 1;
    }
  }
  return undefined;
}

/** The offset of the quote closing the string that opens at `open` (the line's end if none). */
function endOfString(line: string, open: number): number {
  const quote = line[open];
  for (let at = open + 1; at < line.length; at++) {
    if (line[at] === "\\") at++;
    else if (line[at] === quote) return at;
  }
  return line.length;
}
