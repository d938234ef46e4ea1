// Rust crates of a Cargo workspace by the name code uses, from `Cargo.toml`s. Pure.
import { posix as path } from "node:path";
import { parse } from "smol-toml";

/** What a `Cargo.toml` says about crates. */
export interface CargoManifest {
  /** The package's name as code uses it (`-` as `_`), and its crate root (absolute). */
  readonly crate?: { readonly name: string; readonly root: string };
  /**
   * The crate roots of the package (absolute): `[lib] path` (default `src/lib.rs`), each `[[bin]] path` and
   * `src/main.rs`; a `crate::` path starts in the folder of the root that holds the file.
   */
  readonly roots: readonly string[];
  /** `[workspace] members`, as written (globs allowed), and `exclude`. */
  readonly members: readonly string[];
  readonly exclude: readonly string[];
  /** `path` dependencies (every dependency table): name as code uses it → directory (absolute). */
  readonly pathDependencies: ReadonlyMap<string, string>;
}

function table(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The crate name code uses for a package name. */
export function crateName(name: string): string {
  return name.replace(/-/g, "_");
}

/** A `Cargo.toml` in `dir`; malformed TOML gives an empty manifest, never a throw. */
export function parseCargoManifest(text: string, dir: string): CargoManifest {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch {
    return { roots: [], members: [], exclude: [], pathDependencies: new Map() };
  }
  const pkg = table(doc.package);
  const lib = table(doc.lib);
  const libName = typeof lib?.name === "string" ? lib.name : undefined;
  const name = libName ?? (typeof pkg?.name === "string" ? pkg.name : undefined);
  const root = path.resolve(dir, typeof lib?.path === "string" ? lib.path : "src/lib.rs");
  const workspace = table(doc.workspace);
  const pathDependencies = new Map<string, string>();
  const tables = [
    doc.dependencies,
    doc["dev-dependencies"],
    doc["build-dependencies"],
    workspace?.dependencies,
  ];
  for (const target of Object.values(table(doc.target) ?? {})) {
    const t = table(target);
    tables.push(t?.dependencies, t?.["dev-dependencies"]);
  }
  for (const deps of tables) {
    for (const [key, spec] of Object.entries(table(deps) ?? {})) {
      const s = table(spec);
      if (typeof s?.path !== "string") continue;
      // `foo = { package = "bar", path = "…" }`: code names it `foo`.
      pathDependencies.set(crateName(key), path.resolve(dir, s.path));
    }
  }
  const roots = pkg ? [root, path.join(dir, "src", "main.rs")] : [];
  if (pkg && Array.isArray(doc.bin))
    for (const bin of doc.bin) {
      const b = table(bin);
      if (typeof b?.path === "string") roots.push(path.resolve(dir, b.path));
    }
  return {
    ...(name !== undefined && pkg ? { crate: { name: crateName(name), root } } : {}),
    roots: [...new Set(roots)],
    members: strings(workspace?.members),
    exclude: strings(workspace?.exclude),
    pathDependencies,
  };
}
