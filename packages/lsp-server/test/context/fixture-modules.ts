// Hand-made parses for resolution tests of families whose parsers live elsewhere: what a parser would return.
import { posix as path } from "node:path";
import type {
  Declaration,
  DeclarationKind,
  Family,
  LanguageSupport,
  ModuleHost,
  ModuleImport,
  ParsedModule,
} from "../../src/context/types.js";

/** A declaration named `name` (its snippet names it), with members. */
export function decl(
  name: string,
  kind: DeclarationKind = "function",
  members: readonly Declaration[] = [],
  line = 0,
): Declaration {
  return {
    name,
    kind,
    startLine: line,
    endLine: line,
    nameLine: line,
    snippet: `${kind} ${name}`,
    exported: true,
    ...(members.length > 0 ? { members } : {}),
  };
}

/** A glob import (`#include`, `import a.*`, `using A;`). */
export function glob(specifier: string, line = 0): ModuleImport {
  return { specifier, bindings: [{ local: "*", imported: "*" }], line };
}

/** A named import (`import a.B;`, `use A\B as C;`). */
export function named(specifier: string, local: string, imported = local, line = 0): ModuleImport {
  return { specifier, bindings: [{ local, imported }], line };
}

/** What a file holds, as a parser would give it. */
export interface FixtureFile {
  readonly imports?: readonly ModuleImport[];
  readonly declarations?: readonly Declaration[];
  readonly package?: string;
}

/** A workspace of parsed files by absolute path; reads and listings recorded. */
export class FixtureHost implements ModuleHost {
  readonly reads: string[] = [];

  constructor(private readonly files: Readonly<Record<string, FixtureFile>>) {}

  parsed(file: string): ParsedModule {
    const f = this.files[file];
    if (!f) throw new Error(`no fixture ${file}`);
    return {
      path: file,
      imports: f.imports ?? [],
      outline: {
        declarations: f.declarations ?? [],
        reexports: [],
        ...(f.package !== undefined ? { package: f.package } : {}),
      },
    };
  }

  module(file: string): ParsedModule | undefined {
    this.reads.push(file);
    return file in this.files ? this.parsed(file) : undefined;
  }

  list(dir: string): string[] | undefined {
    const prefix = dir.endsWith("/") ? dir : `${dir}/`;
    const names = Object.keys(this.files)
      .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes("/"))
      .map((f) => path.basename(f));
    return names.length > 0 ? names : undefined;
  }
}

/** A `LanguageSupport` made of a family's resolution functions (its parser is not needed: the host has parses). */
export function stubSupport(
  family: Family,
  extensions: readonly string[],
  resolution: Pick<LanguageSupport, "candidates"> & Partial<LanguageSupport>,
): LanguageSupport {
  return {
    family,
    extensions,
    parse: () => ({ imports: [], outline: { declarations: [], reexports: [] } }),
    references: () => [],
    ...resolution,
  };
}
