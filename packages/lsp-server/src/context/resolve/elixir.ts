// Elixir: a module `MyApp.Accounts.User` lives in `lib/my_app/accounts/user.ex` of its mix project. Pure.
import { posix as path } from "node:path";
import type { ResolveEnv } from "../types.js";
import { underscore } from "./ruby.js";

/**
 * The files an alias, `import` or `use` may name: the module's path under the mix project's `lib/` (then
 * `test/support/`), each segment underscored (`MyApp` → `my_app`), `.ex` then `.exs`.
 */
export function elixirCandidates(specifier: string, _fromFile: string, env: ResolveEnv): string[] {
  const segments = specifier.split(".");
  if (segments.length === 0 || !segments.every((s) => /^[A-Z][A-Za-z0-9_]*$/.test(s))) return [];
  const rel = segments.map(underscore);
  const base = env.mixDir ?? env.root;
  const out: string[] = [];
  for (const dir of ["lib", "test/support"]) {
    out.push(`${path.join(base, dir, ...rel)}.ex`, `${path.join(base, dir, ...rel)}.exs`);
  }
  return out;
}
