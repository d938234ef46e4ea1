// Helpers of the typing tests: a rule asked of code with a cursor marker, and the member outline of a receiver in
// an in-memory workspace.
import { supportFor } from "../../src/context/lang/index.js";
import type { Family, ResolveEnv } from "../../src/context/types.js";
import { receiverAt } from "../../src/context/typing/expression.js";
import { rulesFor } from "../../src/context/typing/rules/index.js";
import type { Binding, TypingRules } from "../../src/context/typing/rules.js";
import { ScopeText } from "../../src/context/typing/scope-text.js";
import { receiverOutlines } from "../../src/context/typing/type-outlines.js";
import { VirtualHost } from "./helpers.js";

/** The cursor marker of the typing tests' code. */
export const HERE = "│";

/** The rules of a family (which must have some). */
export function rules(family: Family): TypingRules {
  const found = rulesFor(family);
  if (!found) throw new Error(`no typing rules for ${family}`);
  return found;
}

/** Code up to the cursor marker (all of it without one), as a rule reads the lines above the cursor. */
export function scope(rules: TypingRules, text: string): ScopeText {
  const at = text.indexOf(HERE);
  return new ScopeText(at === -1 ? text : text.slice(0, at), rules.expressions.dialect);
}

/**
 * A binding as a row: `type T`, `value v`, with `[i]` for an index, `inner` when it is an element, `.key` for a
 * destructured member; a callback's parameter as `call callee (argument) [parameter]` or `property key [parameter]`.
 */
export function bindingRow(binding: Binding | undefined): string | undefined {
  if (!binding) return undefined;
  const c = binding.callback;
  if (c)
    return c.context === "call"
      ? `call ${c.callee} (${c.argument}) [${c.parameter}]`
      : `property ${c.key} [${c.parameter}]`;
  const what = binding.type !== undefined ? `type ${binding.type}` : `value ${binding.value}`;
  const member = binding.member !== undefined ? ` .${binding.member}` : "";
  return `${what}${binding.index !== undefined ? ` [${binding.index}]` : ""}${binding.inner ? " inner" : ""}${member}`;
}

/**
 * The outlines of the type of the receiver at the cursor marker of `current` in a workspace of `files` (absolute
 * paths), each as `path:` then its text.
 */
export async function outlinesAt(
  family: Family,
  files: Record<string, string>,
  current: string,
  options: { maxChars?: number; env?: ResolveEnv } = {},
): Promise<string[]> {
  const source = files[current]!;
  const at = source.indexOf(HERE);
  const text = source.slice(0, at);
  // The current file as the chooser parses it for typing: the cursor's line left blank.
  const lines = source.split("\n");
  const line = text.split("\n").length - 1;
  lines[line] = "";
  const host = new VirtualHost({ ...files, [current]: lines.join("\n") });
  const typing = rules(family);
  const receiver = receiverAt(text, typing.expressions);
  if (!receiver) return [];
  const support = supportFor(family)!;
  await support.ready?.();
  const outlines = await receiverOutlines(
    {
      support,
      rules: typing,
      host,
      env: async () => options.env ?? { root: "/w" },
      current: host.parse(current),
    },
    receiver,
    current,
    text,
    { maxChars: options.maxChars ?? 4000, prefix: receiver.prefix, except: current },
  );
  return outlines.map((o) => `${o.path}:\n${o.text}`);
}
