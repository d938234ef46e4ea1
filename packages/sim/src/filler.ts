const PHRASES = [
  "TODO: implement",
  "TODO: handle the error case",
  "TODO: add a test for this",
  "TODO: check the edge cases",
  "TODO: simplify",
] as const;

/**
 * What the simulator answers when prompt lookup finds nothing to copy: a short comment in the
 * prompt's comment style (`//`, `#` or `--`), picked by a hash of the text around the cursor,
 * so the same request always gets the same filler.
 *
 * @param prompt - text before the cursor
 * @param suffix - text after the cursor
 * @returns e.g. `"// TODO: implement"`; with a leading space when the cursor is after text on its line
 */
export function filler(prompt: string, suffix: string): string {
  const around = `${prompt.slice(-512)}\u0000${suffix.slice(0, 512)}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < around.length; i++) hash = Math.imul(hash ^ around.charCodeAt(i), 0x01000193);
  const phrase = PHRASES[(hash >>> 0) % PHRASES.length]!;
  const cursorLine = prompt.slice(prompt.lastIndexOf("\n") + 1);
  return `${/\S/.test(cursorLine) ? " " : ""}${commentMarker(prompt)} ${phrase}`;
}

function commentMarker(prompt: string): string {
  if (prompt.includes("//")) return "//";
  if (/^[ \t]*(?:#|def |import \w|from \S+ import )/m.test(prompt)) return "#";
  if (/^[ \t]*--/m.test(prompt)) return "--";
  return "//";
}
