/** One row of a Markdown table: its cells, trimmed, with the Markdown left in. */
export type TableRow = string[];

/**
 * The body rows of the first table in the section under `## {heading}` (up to the next `## `), or `[]` when there
 * is no such section or table. Escaped pipes (`\|`) stay inside their cell.
 */
export function markdownTable(markdown: string, heading: string): TableRow[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) return [];
  const rows: TableRow[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    if (!line.trimStart().startsWith("|")) {
      if (rows.length > 0) break;
      continue;
    }
    rows.push(
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replaceAll("\\|", "|")),
    );
  }
  // The header row and the |---| separator.
  return rows.slice(2);
}

/** Markdown of a table cell as plain text: code spans and links reduced to their text. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`([^`]*)`/g, "$1");
}

/** `text` broken into lines of at most `width` characters at spaces (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A name/meaning/default table as an indented two-column list, wrapped to `width` columns. */
function formatTable(rows: TableRow[], width: number): string {
  const names = rows.map(([name = ""]) => plainText(name));
  // Wide enough for the names that fit a column at all; a longer one gets a line of its own.
  const column = Math.max(...names.map((name) => (name.length <= 20 ? name.length : 0)), 0) + 4;
  return rows
    .map(([, meaning = "", fallback = ""], i) => {
      const name = names[i]!;
      const defaultText = plainText(fallback);
      const text = `${plainText(meaning)}${defaultText && defaultText !== "—" ? ` [default: ${defaultText}]` : ""}`;
      const body = wrap(text, width - column);
      const first = name.length + 2 < column ? [] : [`  ${name}`];
      return [
        ...first,
        ...body.map((line, j) =>
          j === 0 && first.length === 0
            ? `  ${name.padEnd(column - 2)}${line}`
            : `${" ".repeat(column)}${line}`,
        ),
      ].join("\n");
    })
    .join("\n");
}

/**
 * `infill-lsp --help`: the command line, then the README's Environment and Settings tables as plain text. The
 * README is the one place they are written down (the bundle carries it; see build.mjs).
 *
 * @param version - the server's version
 * @param readme - the package's README.md
 * @param width - columns to wrap to (default 80)
 */
export function usage(version: string, readme: string, width = 80): string {
  return `infill-lsp ${version}: fill-in-the-middle completions over LSP (stdio)

Usage: infill-lsp [--stdio]      serve LSP on stdin/stdout (what editors run)
       infill-lsp --version      print the version
       infill-lsp --help         print this help

Environment:
${formatTable(markdownTable(readme, "Environment"), width)}

Settings (initializationOptions, or the "infill" configuration section):
${formatTable(markdownTable(readme, "Settings"), width)}
`;
}
