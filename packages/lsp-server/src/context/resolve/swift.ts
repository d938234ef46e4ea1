// Swift: `import Foo` names a SwiftPM target (a module), and every file of a target sees the others' names. Pure.
import { posix as path } from "node:path";
import { contains } from "../../workspace/workspace.js";
import type { ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

/** The folder of the target a module import names (`Sources/Foo/` by default, or its `path:`). */
export function swiftCandidates(specifier: string, _fromFile: string, env: ResolveEnv): string[] {
  const dir = env.swiftTargets?.get(specifier);
  return dir === undefined ? [] : [`${dir}/`];
}

/** Names of the same module: the file's folder, then its target's folder. */
export function swiftImplicit(_name: string, from: ParsedModule, env: ResolveEnv): ImplicitCandidate[] {
  const dir = path.dirname(from.path);
  const out = [`${dir}/`];
  for (const target of env.swiftTargets?.values() ?? [])
    if (contains(target, from.path)) out.push(`${target}/`);
  return [...new Set(out)].map((p) => ({ path: p }));
}

/**
 * The targets of a `Package.swift`: `.target`, `.executableTarget`, `.testTarget`, `.macro`, `.plugin` by `name:`,
 * each in its `path:` or SwiftPM's default (`Sources/<name>`, `Tests/<name>` for tests). Never throws.
 */
export function swiftPackageTargets(text: string, dir: string): Map<string, string> {
  const targets = new Map<string, string>();
  const calls = [...text.matchAll(/\.(target|executableTarget|testTarget|macro|plugin|systemLibrary)\s*\(/g)];
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    const body = text.slice(call.index + call[0].length, calls[i + 1]?.index ?? text.length);
    const name = /^\s*name:\s*"([^"]+)"/.exec(body)?.[1];
    if (name === undefined || targets.has(name)) continue;
    const at = /\bpath:\s*"([^"]+)"/.exec(body)?.[1];
    const base = call[1] === "testTarget" ? "Tests" : call[1] === "plugin" ? "Plugins" : "Sources";
    targets.set(name, path.resolve(dir, at ?? path.join(base, name)));
  }
  return targets;
}
