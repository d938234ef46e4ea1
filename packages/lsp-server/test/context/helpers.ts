import { posix as path } from "node:path";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { familyOf } from "../../src/context/languages.js";
import { supportOfFile } from "../../src/context/modules/parse-file.js";
import type {
  Declaration,
  LanguageSupport,
  ModuleHost,
  ModuleImport,
  ParsedModule,
  Reference,
  ResolveEnv,
} from "../../src/context/types.js";

/**
 * A source written indented in a test: the first line break and the common indentation go, so that lines and
 * columns are those of the code as it would sit in its file.
 */
export function code(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = String.raw(
    { raw: strings.raw.map((s) => s.replace(/\\`/g, "`").replace(/\\\$/g, "$")) },
    ...values,
  );
  const lines = raw
    .replace(/^\n/, "")
    .replace(/\n[ \t]*$/, "")
    .split("\n");
  const indent = Math.min(
    ...lines.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length),
  );
  return lines.map((l) => l.slice(indent)).join("\n");
}

/** Imports as rows: the specifier, then `local=imported` per binding. */
export function importRows(imports: readonly ModuleImport[]): string[][] {
  return imports.map((i) => [i.specifier, ...i.bindings.map((b) => `${b.local}=${b.imported}`)]);
}

/** References as `name.member@distance` (the whole chain when there is one). */
export function referenceRows(references: readonly Reference[]): string[] {
  return references.map(
    (r) => `${(r.chain ?? [r.name, ...(r.member ? [r.member] : [])]).join(".")}@${r.distance}`,
  );
}

/** One line per declaration: `kind name start-end@nameLine`, ` +` when exported; members indented below. */
export function summary(declarations: readonly Declaration[], indent = ""): string[] {
  return declarations.flatMap((d) => [
    `${indent}${d.kind} ${d.name} ${d.startLine}-${d.endLine}@${d.nameLine}${d.exported ? " +" : ""}`,
    ...summary(d.members ?? [], `${indent}  `),
  ]);
}

/** The declaration of a name (members searched too), or an error naming what there is. */
export function declaration(declarations: readonly Declaration[], name: string): Declaration {
  for (const d of declarations) {
    if (d.name === name) return d;
    const inner = d.members?.find((m) => m.name === name);
    if (inner) return inner;
  }
  throw new Error(`no declaration ${name} in ${declarations.map((d) => d.name).join(", ")}`);
}

/** A workspace in memory: files by absolute path, parsed by their family; reads are recorded. */
export class VirtualHost implements ModuleHost {
  readonly reads: string[] = [];
  readonly lists: string[] = [];
  private readonly parsed = new Map<string, ParsedModule>();

  constructor(private readonly files: Readonly<Record<string, string>>) {}

  /** The parsed module at a path (what the edge would hand to `findDeclarations` as the current file). */
  parse(file: string): ParsedModule {
    const cached = this.parsed.get(file);
    if (cached) return cached;
    const text = this.files[file];
    // As the edge parses a file read from disk (a `.h` by its text).
    const support = text === undefined ? undefined : supportOfFile(file, text);
    if (text === undefined || !support) throw new Error(`no file ${file}`);
    const module = { path: file, ...support.parse(text) };
    this.parsed.set(file, module);
    return module;
  }

  module(file: string): ParsedModule | undefined {
    this.reads.push(file);
    return file in this.files && familyOf(undefined, file) ? this.parse(file) : undefined;
  }

  list(dir: string): string[] | undefined {
    this.lists.push(dir);
    const prefix = dir.endsWith("/") ? dir : `${dir}/`;
    const names = Object.keys(this.files)
      .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes("/"))
      .map((f) => path.basename(f));
    return names.length > 0 ? names : undefined;
  }
}

/**
 * `path:name` of what a reference on line `line` (0-based) of `from` reaches, with the cursor there: the types
 * around it read from the lines above as the language reads them (`LanguageSupport.nesting`).
 */
export async function resolvedAt(
  support: LanguageSupport,
  host: VirtualHost,
  from: string,
  text: string,
  line: number,
  reference: Reference,
  env: ResolveEnv = { root: "/w" },
): Promise<string[]> {
  const lines = text.split("\n").slice(0, line + 1);
  const nesting = support.nesting?.(lines);
  const at = { line, ...(nesting ? { nesting } : {}) };
  const found = await findDeclarations(support, host.parse(from), [reference], host, env, {}, at);
  return found.map((f) => `${f.path}:${f.declaration.name}`);
}
