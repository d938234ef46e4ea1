// What a next-edit request the sim received shows the model: the editable region and the edit history, read from
// the body as each format lays them out. Pure; written from the formats' published layouts, not from the server's
// formatters or the simulator's readers.

/** The formats a next-edit request can be in. */
export type FormatName = "deepseek" | "zeta" | "sweep" | "instinct";

/** Every format, in report order. */
export const FORMAT_NAMES: readonly FormatName[] = ["deepseek", "zeta", "sweep", "instinct"];

/** What the request shows. */
export interface PromptReading {
  /** The region the model may rewrite, as lines (no cursor marker). */
  readonly regionLines: readonly string[];
  /** The region's text as sent (cursor marker removed). */
  readonly region: string;
  /** The edit history's text as sent. */
  readonly history: string;
}

const START = "<|editable_region_start|>";
const END = "<|editable_region_end|>";
const CURSOR = "<|user_cursor_is_here|>";
const FILE_SEP = "<|file_sep|>";

interface Body {
  prompt?: string;
  messages?: { role: string; content: string }[];
}

/** The text of a raw prompt, or of the last user message. */
function promptText(body: Body): string | undefined {
  if (typeof body.prompt === "string") return body.prompt;
  return body.messages?.findLast((message) => message.role === "user")?.content;
}

/** The lines between the markers (`START\n…\nEND`). */
function markedRegion(text: string): string | undefined {
  const start = text.indexOf(START);
  const end = text.indexOf(END, start);
  if (start === -1 || end === -1) return undefined;
  return text
    .slice(start + START.length + 1, Math.max(start + START.length + 1, end - 1))
    .split(CURSOR)
    .join("");
}

/** Sweep's `<|file_sep|>name\ncontent` sections. */
function sections(prompt: string): { name: string; content: string }[] {
  return prompt
    .split(FILE_SEP)
    .slice(1)
    .map((section) => {
      const lineEnd = section.indexOf("\n");
      return lineEnd === -1
        ? { name: section, content: "" }
        : { name: section.slice(0, lineEnd), content: section.slice(lineEnd + 1).replace(/\n$/, "") };
    });
}

/** The region and history of a request body in `format`; undefined when it has neither where the format puts them. */
export function readPrompt(body: unknown, format: FormatName): PromptReading | undefined {
  const text = promptText(body as Body);
  if (text === undefined) return undefined;
  let region: string | undefined;
  let history: string;
  if (format === "sweep") {
    const all = sections(text);
    region = all.findLast((section) => section.name.startsWith("current/"))?.content;
    history = all
      .filter((section) => section.name.endsWith(".diff"))
      .map((section) => section.content)
      .join("\n");
  } else {
    const edits = text.indexOf("### User Edits:");
    const excerpt = text.indexOf("### User Excerpt:", edits);
    if (edits === -1 || excerpt === -1) return undefined;
    history = text.slice(edits + "### User Edits:".length, excerpt).trim();
    region = markedRegion(text.slice(excerpt));
  }
  if (region === undefined) return undefined;
  return { region, regionLines: region.split("\n"), history };
}

/**
 * Whether the history shows the edit that turned `oldLine` into `newLine`: as a diff's `-` and `+` lines (Zeta,
 * Instinct, deepseek), or as lines of Sweep's `original:` and `updated:`.
 */
export function showsEdit(
  reading: PromptReading,
  format: FormatName,
  oldLine: string,
  newLine: string,
): boolean {
  const lines = reading.history.split("\n");
  if (format !== "sweep") return lines.includes(`-${oldLine}`) && lines.includes(`+${newLine}`);
  const updated = lines.indexOf("updated:");
  return (
    updated !== -1 && lines.slice(0, updated).includes(oldLine) && lines.slice(updated).includes(newLine)
  );
}

/**
 * The document lines the region is, as `[start, end]` (0-based, inclusive): where its lines stand in the document,
 * the span holding the cursor's line first; undefined when they stand nowhere.
 */
export function regionSpan(
  regionLines: readonly string[],
  documentLines: readonly string[],
  cursorLine: number,
): { start: number; end: number } | undefined {
  const n = regionLines.length;
  const matches = (start: number) => regionLines.every((line, i) => documentLines[start + i] === line);
  for (let start = Math.max(0, cursorLine - n + 1); start <= cursorLine; start++) {
    if (start + n <= documentLines.length && matches(start)) return { start, end: start + n - 1 };
  }
  for (let start = 0; start + n <= documentLines.length; start++) {
    if (matches(start)) return { start, end: start + n - 1 };
  }
  return undefined;
}
