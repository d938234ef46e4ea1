import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./sandbox.js";

/**
 * The code of the README's provider configuration for an editor: the fenced block after its
 * `<!-- providers-config: NAME -->` marker, so that what the README shows is what the tests run.
 */
export function readmeConfig(name: "neovim" | "helix" | "emacs"): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const marker = `<!-- providers-config: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no ${marker}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at + marker.length));
  if (!block) throw new Error(`README.md has no code block after ${marker}`);
  return block[1] as string;
}
