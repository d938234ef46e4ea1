// Sweep's next-edit model: a raw prompt of `<|file_sep|>` sections (related files, `{path}.diff` with `original:` and
// `updated:`, `original/{path}`, `current/{path}`) ending with `<|file_sep|>updated/{path}\n`; the model writes the
// window again and a line break, then the separator the request stops at (Zed's crates/edit_prediction/src/
// sweep_prompt.rs reads the answer so).
import type { ShownEdit } from "./edit-task.js";
import type { RequestFormat } from "./request-format.js";

const FILE_SEP = "<|file_sep|>";

/** A section's name (its first line) and its content (the rest, without its final "\n"). */
function sections(prompt: string): { name: string; content: string }[] {
  return prompt
    .split(FILE_SEP)
    .slice(1)
    .map((section) => {
      const lineEnd = section.indexOf("\n");
      const content = lineEnd === -1 ? "" : section.slice(lineEnd + 1);
      return {
        name: lineEnd === -1 ? section : section.slice(0, lineEnd),
        content: content.endsWith("\n") ? content.slice(0, -1) : content,
      };
    });
}

/** A `{path}.diff` section's two sides. */
function change(content: string): ShownEdit | undefined {
  const lines = content.split("\n");
  const updated = lines.indexOf("updated:", 1);
  if (lines[0] !== "original:" || updated === -1) return undefined;
  return { before: lines.slice(1, updated), after: lines.slice(updated + 1) };
}

/** Reads Sweep's prompt; writes the updated window. */
export const sweepRequest: RequestFormat = {
  name: "sweep",
  read({ prompt }) {
    const path = prompt === undefined ? undefined : /<\|file_sep\|>updated\/([^\n]*)\n$/.exec(prompt)?.[1];
    if (prompt === undefined || path === undefined) return undefined;
    const all = sections(prompt);
    const current = all.find((section) => section.name === `current/${path}`);
    if (!current) return undefined;
    const edits = all
      .filter((section) => section.name.endsWith(".diff"))
      .map((section) => change(section.content))
      .filter((edit) => edit !== undefined);
    return {
      task: { edits, region: current.content.split("\n") },
      write: (region) => `${region.join("\n")}\n`,
    };
  },
};
