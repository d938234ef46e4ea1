// The ctags oracle's reading of Ruby's locals and parameters, which Universal Ctags' Ruby parser does not report
// (it has no `local` or `parameter` kind): without them a method's parameter `lines` or a block's `|opt|` would be
// taken for another file's method `lines` or `opt`. Pure, lexical, shared with nothing in the server.

/** An identifier that may be a local (lower case or `_` first). */
const LOCAL = /^[a-z_][A-Za-z0-9_]*$/;

/** The names a parameter list binds: `a, b = 1, *c, **d, &e, k:, k2: 2, (x, y)`. */
function parameterNames(list: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  const take = (part: string) => {
    // Destructured `(x, y)`: each name in it.
    const inner = part.trim().replace(/^[*&]{1,2}/, "");
    if (inner.startsWith("(")) {
      names.push(
        ...parameterNames(inner.slice(1, inner.lastIndexOf(")") === -1 ? undefined : inner.lastIndexOf(")"))),
      );
      return;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(inner);
    if (m && LOCAL.test(m[1]!)) names.push(m[1]!);
  };
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      take(list.slice(start, i));
      start = i + 1;
    }
  }
  take(list.slice(start));
  return names;
}

/**
 * The names a Ruby file binds as locals or parameters, read from its code with comments and literals blanked:
 * method parameters (`def m(a, b = 1, *c, &d)`, `def self.m a, b`), block parameters (`do |x, (y, z)|`,
 * `{ |k:| … }`), assignments to a bare name (`x = 1`, `x ||= 2`, `a, b = pair`), `rescue => e` and `for x in`.
 * Per file, as ctags' locals are in the other languages: such a name anywhere in the file shadows another file's.
 */
export function rubyLocalNames(code: string): Set<string> {
  const names = new Set<string>();
  const add = (list: readonly string[]) => {
    for (const name of list) names.add(name);
  };
  // `def name(params)` or `def name params` (to the end of the line); `def self.name`, `def obj.name`.
  for (const m of code.matchAll(
    /\bdef\s+(?:[A-Za-z_]\w*\s*\.\s*)?[A-Za-z_]\w*[?!=]?(?:\s*\(([^)]*)\)|[ \t]+([^\n;]*))?/g,
  ))
    add(parameterNames(m[1] ?? m[2] ?? ""));
  // Block parameters right after `do` or `{`.
  for (const m of code.matchAll(/(?:\bdo|\{)\s*\|([^|]*)\|/g)) add(parameterNames(m[1]!));
  // Assignments to bare names: not `a.b =`, `@a =`, `$a =`, `A =` (a constant), `==`, `=~`, `=>`.
  for (const m of code.matchAll(
    /(?<![\w.@$:])((?:[a-z_]\w*\s*,\s*)*[a-z_]\w*)\s*(?:\|\||&&|\+|-|\*|\/|<<)?=(?![=~>])/g,
  ))
    add(m[1]!.split(",").map((s) => s.trim()));
  for (const m of code.matchAll(/\brescue\b[^\n;]*=>\s*([a-z_]\w*)/g)) names.add(m[1]!);
  for (const m of code.matchAll(/\bfor\s+((?:[a-z_]\w*\s*,\s*)*[a-z_]\w*)\s+in\b/g))
    add(m[1]!.split(",").map((s) => s.trim()));
  return names;
}
