import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./sandbox.js";

/**
 * The code of the fenced block after the `<!-- MARKER -->` line of a README (`file` relative to the repository), so
 * that what the README shows is what the tests run.
 */
export function readmeBlock(file: string, marker: string): string {
  const readme = readFileSync(join(REPO, file), "utf8");
  const comment = `<!-- ${marker} -->`;
  const at = readme.indexOf(comment);
  if (at === -1) throw new Error(`${file} has no ${comment}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at + comment.length));
  if (!block) throw new Error(`${file} has no code block after ${comment}`);
  return block[1] as string;
}

/** The main README's provider configuration for an editor: the block after `<!-- providers-config: NAME -->`. */
export function readmeConfig(name: "neovim" | "helix" | "emacs"): string {
  return readmeBlock("README.md", `providers-config: ${name}`);
}

/** editors/README.md's next-edit configuration for an editor: the block after `<!-- next-edit-config: NAME -->`. */
export function nextEditConfig(name: "helix" | "emacs"): string {
  return readmeBlock("editors/README.md", `next-edit-config: ${name}`);
}
