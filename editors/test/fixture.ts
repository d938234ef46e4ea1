import type { Sim } from "@infill/sim";

/** The cursor marker in fixtures. */
export const CURSOR = "│";

/** A fixture split at its cursor marker. */
export interface Fixture {
  /** The text without the marker. */
  text: string;
  /** 1-based line of the cursor. */
  line: number;
  /** 0-based column of the cursor (UTF-16 units; the fixtures are ASCII). */
  column: number;
  /** The text before the cursor. */
  before: string;
  /** The text after the cursor. */
  after: string;
}

/** Split a fixture at its one cursor marker. */
export function fixture(source: string): Fixture {
  const at = source.indexOf(CURSOR);
  if (at === -1 || source.indexOf(CURSOR, at + 1) !== -1)
    throw new Error("a fixture needs one cursor marker");
  const before = source.slice(0, at);
  const after = source.slice(at + CURSOR.length);
  const lines = before.split("\n");
  return { text: before + after, line: lines.length, column: lines.at(-1)!.length, before, after };
}

/** Whether the sim got a request for this cursor: a prompt ending with `before`, a suffix starting with `after`. */
export function askedAt(sim: Sim, before: string, after: string): boolean {
  return sim.requests.some((request) => {
    const body = request.body as { prompt?: unknown; suffix?: unknown } | undefined;
    return (
      typeof body?.prompt === "string" &&
      body.prompt.endsWith(before) &&
      typeof body.suffix === "string" &&
      body.suffix.startsWith(after)
    );
  });
}

/** A prompt with repository context: the block before the current file's path line, and the file's text after it. */
export interface ContextPrompt {
  /** The context block (snippets under `// <path>` lines); `""` when the prompt has no path line for the file. */
  block: string;
  /** The current file's text before the cursor. */
  file: string;
}

/**
 * The prompts of the requests the sim got with the cursor right after `before` (a prompt ending with it), each split
 * at the current file's path line `// <path>` (`path` workspace-relative).
 */
export function contextPrompts(sim: Sim, path: string, before: string): ContextPrompt[] {
  const pathLine = `// ${path}\n`;
  return sim.requests.flatMap((request) => {
    const prompt = (request.body as { prompt?: unknown } | undefined)?.prompt;
    if (typeof prompt !== "string" || !prompt.endsWith(before)) return [];
    const at = prompt.indexOf(pathLine);
    if (at === -1) return [{ block: "", file: prompt }];
    return [{ block: prompt.slice(0, at), file: prompt.slice(at + pathLine.length) }];
  });
}

/** The lines of a context block after the path line `// <path>`, or undefined when the block has no such line. */
export function snippetsOf(block: string, path: string): string[] | undefined {
  const lines = block.split("\n");
  const at = lines.indexOf(`// ${path}`);
  return at === -1 ? undefined : lines.slice(at + 1);
}

/**
 * A function whose local `total` the next-edit tests rename to `sum` at its declaration (line 2, 1-based); the next
 * edits carry the rename to lines 3, 4 and 5. Line 4 has characters outside ASCII before `total`, so that its
 * position differs in UTF-8 (Helix), UTF-16 and UTF-32 (Eglot).
 */
export function renameSample(language: "typescript" | "javascript"): { text: string; renamed: string } {
  const text =
    language === "typescript"
      ? "export function average(values: number[]): number {\n"
      : "function average(values) {\n";
  const body = `  let total = 0;
  for (const value of values) total += value;
  console.log("Σ ≈", total);
  return total / values.length;
}
`;
  return { text: text + body, renamed: text + body.replaceAll("total", "sum") };
}

/** The next-edit requests the sim got (DeepSeek's Chat Prefix Completion). */
export function nextEditRequests(sim: Sim): Sim["requests"] {
  return sim.requests.filter((request) => request.path === "/beta/chat/completions");
}
