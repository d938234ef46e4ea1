// C#: `using A.B;` names a namespace, which any file of the project may add to, whatever its folder. By the
// convention .NET projects follow (the SDK's default namespaces, StyleCop's SA1649), a type `Foo` is in `Foo.cs`, in
// the folder its namespace maps to below the project's root namespace. So a name the file uses is looked for as
// `<Name>.cs` beside the file, then in the folders of the file's enclosing namespaces and of its `using`s; the
// workspace symbol index (`symbol-index.ts`) answers the rest. Pure.
import { posix as path } from "node:path";
import type { ImplicitCandidate, ParsedModule, ResolveEnv } from "../types.js";

/** Always `[]`: a namespace is not a file (`csharpImplicit` and the symbol index answer C# names). */
export function csharpCandidates(_specifier: string, _fromFile: string, _env: ResolveEnv): string[] {
  return [];
}

/**
 * The namespace and folder that correspond in a file's place: its namespace's last segments that its folders end
 * with are left out of both (`dnlib.DotNet` in `src/DotNet/` → `dnlib` in `src/`). When none match, the file's
 * namespace is its folder's.
 */
export function namespaceRoot(namespace: string, dir: string): { namespace: string; dir: string } {
  const segments = namespace.split(".");
  const folders = dir.split("/");
  let k = 0;
  while (
    k < segments.length - 1 &&
    k < folders.length - 1 &&
    segments[segments.length - 1 - k]!.toLowerCase() === folders[folders.length - 1 - k]!.toLowerCase()
  )
    k++;
  return {
    namespace: segments.slice(0, segments.length - k).join("."),
    dir: folders.slice(0, folders.length - k).join("/"),
  };
}

/**
 * Where a type used in a C# file may be declared: `<Name>.cs` beside the file, then in the folder of each namespace
 * in scope below the project's root namespace (the file's own and its parents, then its `using`s'), as
 * {@link namespaceRoot} maps them. Names that are not capitalised (locals) give none.
 */
export function csharpImplicit(name: string, from: ParsedModule, _env: ResolveEnv): ImplicitCandidate[] {
  if (!/^\p{Lu}[\p{L}\p{N}_]*$/u.test(name)) return [];
  const file = `${name}.cs`;
  const dir = path.dirname(from.path);
  const paths = [path.join(dir, file)];
  const own = from.outline.package;
  if (own) {
    const root = namespaceRoot(own, dir);
    const scope: string[] = [];
    const parts = own.split(".");
    for (let i = parts.length; i > 0; i--) scope.push(parts.slice(0, i).join("."));
    for (const imp of from.imports) if (imp.bindings.some((b) => b.local === "*")) scope.push(imp.specifier);
    for (const namespace of scope) {
      if (namespace !== root.namespace && !namespace.startsWith(`${root.namespace}.`)) continue;
      const below = namespace.slice(root.namespace.length).split(".").filter(Boolean);
      paths.push(path.join(root.dir, ...below, file));
    }
  }
  return [...new Set(paths)].map((p) => ({ path: p }));
}
