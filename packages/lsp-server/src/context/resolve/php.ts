// PHP: `use` names a class by namespace, which composer.json's PSR-4 maps to a file; `require` names a file. Pure.
import { posix as path } from "node:path";
import type { ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

const NAME = /^\\?[\p{L}_][\p{L}\p{N}_]*(\\[\p{L}_][\p{L}\p{N}_]*)*$/u;

/**
 * The files a PHP specifier may name, most likely first. A namespaced name `A\B\C` (a class, or a function or
 * constant of `use function`): `<dir>/B/C.php` for the longest PSR-4 prefix `A\` mapped to `<dir>`, then
 * `src/A/B/C.php` and `A/B/C.php` at the root, then the namespace's folder (a function file, named otherwise). A
 * path (`./x.php`, `x.php`): beside the file, then at the root.
 */
export function phpCandidates(specifier: string, fromFile: string, env: ResolveEnv): string[] {
  if (specifier.endsWith(".php") || specifier.startsWith(".") || specifier.startsWith("/")) {
    if (specifier.includes("\0")) return [];
    if (path.isAbsolute(specifier)) return [path.normalize(specifier)];
    const out = [path.join(path.dirname(fromFile), specifier)];
    if (!specifier.startsWith(".")) out.push(path.join(env.root, specifier));
    return [...new Set(out)];
  }
  if (!NAME.test(specifier)) return [];
  const name = specifier.replace(/^\\/, "");
  const files: string[] = [];
  const dirs: string[] = [];
  for (const { prefix, dirs: roots } of env.psr4 ?? []) {
    if (!name.startsWith(prefix)) continue;
    const rel = name.slice(prefix.length).split("\\");
    for (const root of roots) {
      files.push(`${path.join(root, ...rel)}.php`);
      if (rel.length > 1) dirs.push(`${path.join(root, ...rel.slice(0, -1))}/`);
    }
  }
  const parts = name.split("\\");
  files.push(`${path.join(env.root, "src", ...parts)}.php`, `${path.join(env.root, ...parts)}.php`);
  return [...new Set([...files, ...dirs])];
}

/** Where a class of the file's own namespace may be declared: PSR-4 for `Namespace\Name`, then beside the file. */
export function phpImplicit(name: string, from: ParsedModule, env: ResolveEnv): ImplicitCandidate[] {
  const ns = from.outline.package;
  const full = ns === undefined || ns === "" ? name : `${ns}\\${name}`;
  const out = phpCandidates(full, from.path, env).filter((p) => !p.endsWith("/"));
  out.push(path.join(path.dirname(from.path), `${name}.php`));
  return [...new Set(out)].map((p) => ({ path: p }));
}

/**
 * The PSR-4 map of a `composer.json`: `autoload` and `autoload-dev` `psr-4` prefixes (`""` is the fallback) with
 * their directories made absolute, longest prefix first. Malformed text gives `[]`; never throws.
 */
export function composerPsr4(text: string, dir: string): Array<{ prefix: string; dirs: string[] }> {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof manifest !== "object" || manifest === null) return [];
  const out: Array<{ prefix: string; dirs: string[] }> = [];
  for (const key of ["autoload", "autoload-dev"]) {
    const section = (manifest as Record<string, unknown>)[key];
    const map =
      typeof section === "object" && section !== null
        ? (section as Record<string, unknown>)["psr-4"]
        : undefined;
    if (typeof map !== "object" || map === null) continue;
    for (const [rawPrefix, value] of Object.entries(map as Record<string, unknown>)) {
      const targets = (Array.isArray(value) ? value : [value]).filter(
        (v): v is string => typeof v === "string",
      );
      if (targets.length === 0) continue;
      const prefix =
        rawPrefix === "" || rawPrefix.endsWith("\\") ? rawPrefix.replace(/^\\/, "") : `${rawPrefix}\\`;
      out.push({ prefix, dirs: targets.map((t) => path.resolve(dir, t)) });
    }
  }
  return out.sort((a, b) => b.prefix.length - a.prefix.length);
}
