import { argumentListAt } from "./argument-list.js";
import { changedLines } from "./changed-lines.js";
import type { RegionRule, ShownEdit } from "./edit-task.js";
import { isWordChar } from "./words.js";

/** A parameter added to a function's declaration. */
export interface AddedParameter {
  /** The function's name. */
  callee: string;
  /** How many parameters it had. */
  oldCount: number;
  /** Where the new one stands. */
  index: number;
  /** The new parameter's name: the argument its calls get. */
  name: string;
}

/** The words that open a declaration: a name after one of them is declared, not called. */
const DECLARES = /\b(?:function|def|fn|func|fun|sub|proc|void|async)\s+$/;

/**
 * A parameter's name: the identifier before a type annotation (`c: number`) or a default (`c = 1`); otherwise the
 * last identifier (`int c`), or the first after Go's `func` (`c int`).
 */
function parameterName(parameter: string, goStyle: boolean): string | undefined {
  const declared = parameter.split(/[:=]/)[0] ?? "";
  const names = declared.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? [];
  return /[:=]/.test(parameter) || !goStyle ? names.at(-1) : names[0];
}

/** The parameter a changed line added: the same line but for one more item in the first parenthesised list. */
function addedIn(oldLine: string, newLine: string): AddedParameter | undefined {
  const open = newLine.indexOf("(");
  if (open < 0 || oldLine.slice(0, open + 1) !== newLine.slice(0, open + 1)) return undefined;
  const callee = /([A-Za-z_$][A-Za-z0-9_$]*)\s*$/.exec(newLine.slice(0, open))?.[1];
  const before = argumentListAt(oldLine, open);
  const after = argumentListAt(newLine, open);
  if (!callee || !before || !after || after.items.length !== before.items.length + 1) return undefined;
  if (oldLine.slice(before.close) !== newLine.slice(after.close)) return undefined;
  const oldItems = before.items.map((item) => item.trim());
  const newItems = after.items.map((item) => item.trim());
  const index = newItems.findIndex(
    (_, k) => newItems.filter((__, i) => i !== k).join("\u0000") === oldItems.join("\u0000"),
  );
  const added = newItems[index];
  const name = added === undefined ? undefined : parameterName(added, /\bfunc\s/.test(newLine));
  return name ? { callee, oldCount: oldItems.length, index, name } : undefined;
}

/** The parameter the edit added to a declaration, if one of the lines it changed did. */
export function addedParameterOf(edit: ShownEdit): AddedParameter | undefined {
  for (const line of changedLines(edit)) {
    const added = addedIn(line.old, line.new);
    if (added) return added;
  }
  return undefined;
}

/** The line with the argument added to every call of the callee that still has the old count of arguments. */
function withArgument(line: string, added: AddedParameter): string {
  let out = line;
  // Right to left, so that each insertion leaves the offsets of those still to do.
  const calls = [
    ...line.matchAll(new RegExp(`${added.callee.replaceAll("$", "\\$")}\\s*\\(`, "g")),
  ].reverse();
  for (const call of calls) {
    const at = call.index;
    if (isWordChar(line[at - 1]) || DECLARES.test(line.slice(0, at))) continue;
    const list = argumentListAt(out, at + call[0].length - 1);
    if (!list || list.items.length !== added.oldCount) continue;
    if (added.index >= list.items.length) {
      const insert = list.items.length === 0 ? added.name : `, ${added.name}`;
      out = out.slice(0, list.close) + insert + out.slice(list.close);
    } else {
      const item = list.items[added.index] as string;
      const start = (list.starts[added.index] as number) + (item.length - item.trimStart().length);
      out = `${out.slice(0, start)}${added.name}, ${out.slice(start)}`;
    }
  }
  return out;
}

/** (b) The last edit added a parameter to a function: its calls in the region get an argument of that name. */
export const carryAddedParameter: RegionRule = (region, lastEdit) => {
  const added = addedParameterOf(lastEdit);
  return added && region.map((line) => withArgument(line, added));
};
