// The declarations one type inference reads: names looked up within a budget (each once), a declaration's lines,
// the type declaration a typed value's members are in (wrappers seen through, aliases followed), a type's bases
// and members (inherited ones too), what a function's signature says it returns.
import type { TextLines } from "../scan/source-text.js";
import type { Declaration } from "../types.js";
import type { TypingRules } from "./rules.js";
import { ScopeText } from "./scope-text.js";
import { parseType, type TypeExpr } from "./type-expr.js";

/** A declaration and the file that declares it (absolute path). */
export interface Site {
  readonly path: string;
  readonly declaration: Declaration;
}

/** Where names are resolved: the edge's import resolution and files. */
export interface TypeWorld {
  /**
   * The declarations a name or qualified name written in `file` (absolute) means there, the file's own first;
   * none when it means none (or a module).
   */
  lookup(written: string, file: string): Promise<readonly Site[]>;
  /** The lines of the file a declaration was read from. */
  lines(site: Site): TextLines | undefined;
}

/** A type as written in a file, with the type whose member declared it (for `Self`, `this`); or already found. */
export interface Typed {
  readonly type: TypeExpr;
  readonly file: string;
  readonly owner?: Site;
  readonly site?: Site;
  /** The member of `owner` whose declaration wrote this type (a type literal spelled out there). */
  readonly member?: string;
}

/** Kinds of declarations that have members a value's access offers. */
export const TYPE_KINDS: ReadonlySet<Declaration["kind"]> = new Set([
  "class",
  "interface",
  "struct",
  "trait",
  "type",
  "enum",
]);
/** Lines of a declaration read for a member's type at most (its doc comment, its signature). */
export const MEMBER_LINES = 12;
/** Lines of a class's body read for its fields at most. */
export const BODY_LINES = 600;

/** Bounds of the declarations one inference reads. */
export interface SiteLimits {
  /** Names resolved at most. */
  readonly lookups: number;
  /** Steps nested at most. */
  readonly depth: number;
}

/** The declarations one inference reads, each name looked up once; past `lookups`, it goes without. */
export class TypeSites {
  #lookups: number;
  readonly #depth: number;
  readonly #found = new Map<string, Promise<readonly Site[]>>();
  readonly #bases = new Map<Declaration, Promise<Site[]>>();

  constructor(
    private readonly rules: TypingRules,
    private readonly world: TypeWorld,
    limits: SiteLimits,
  ) {
    this.#lookups = limits.lookups;
    this.#depth = limits.depth;
  }

  /** A type as a file writes it. */
  written(type: string, file: string): Typed {
    return { type: parseType(type, this.rules.types), file };
  }

  /** The type's bases, found as its file names them (superclasses, embedded types), nearest first. */
  bases(site: Site): Promise<Site[]> {
    let found = this.#bases.get(site.declaration);
    if (!found) {
      found = this.#findBases(site);
      this.#bases.set(site.declaration, found);
    }
    return found;
  }

  async #findBases(site: Site): Promise<Site[]> {
    const lines = this.text(site, BODY_LINES);
    const written = new Set([...(lines ? this.rules.bases(lines, site.declaration.name) : [])]);
    for (const base of site.declaration.bases ?? []) written.add(base);
    const out: Site[] = [];
    for (const base of written) {
      const found = await this.site({ type: parseType(base, this.rules.types), file: site.path }, 1);
      if (found && found.declaration !== site.declaration) out.push(found);
    }
    return out;
  }

  /** A method's or function's declared return type, as its file writes it (its owner stands for `Self`). */
  returned(owner: Site, member: Declaration, path = owner.path): Typed | undefined {
    const lines = this.text({ path, declaration: member }, MEMBER_LINES);
    const type = lines && this.rules.returns(lines, member.name);
    return type === undefined
      ? undefined
      : { type: parseType(type, this.rules.types), file: path, owner, member: member.name };
  }

  /** The type declaration a typed value's members are looked up in (wrappers seen through, aliases followed). */
  async site(typed: Typed | undefined, depth: number): Promise<Site | undefined> {
    if (!typed || depth > this.#depth) return undefined;
    if (typed.site) return typed.site;
    const type = this.rules.accessed(typed.type);
    if (type?.kind !== "named") return undefined;
    if (this.rules.selfNames?.includes(type.name)) return typed.owner;
    const found = await this.lookup(type.name, typed.file);
    const site = found.find((s) => TYPE_KINDS.has(s.declaration.kind));
    if (!site) return undefined;
    if (site.declaration.members?.length) return site;
    const lines = this.text(site, MEMBER_LINES);
    const aliased = lines && this.rules.aliased?.(lines, site.declaration.name);
    if (aliased === undefined) return site;
    return (await this.site(this.written(aliased, site.path), depth + 1)) ?? site;
  }

  /**
   * A member of a type, or of its bases (nearest first, a few levels deep), with the type that declares it. A call
   * (`called`) takes a method over a field of the same name (Rust's `version` field and `version()` builder).
   */
  async member(
    site: Site,
    name: string,
    depth = 0,
    called = false,
  ): Promise<{ owner: Site; member: Declaration } | undefined> {
    const named = site.declaration.members?.filter((m) => m.name === name) ?? [];
    const own = (called && named.find((m) => m.kind === "method" || m.kind === "function")) || named[0];
    if (own) return { owner: site, member: own };
    if (depth > this.#depth - 2) return undefined;
    for (const base of await this.bases(site)) {
      const found = await this.member(base, name, depth + 1, called);
      if (found) return found;
    }
    return undefined;
  }

  /** The declarations a name written in a file means there (each looked up once; none past the budget). */
  async lookup(written: string, file: string): Promise<readonly Site[]> {
    const key = `${file}\0${written}`;
    let found = this.#found.get(key);
    if (!found) {
      if (this.#lookups <= 0) return [];
      this.#lookups--;
      found = this.world.lookup(written, file).catch(() => []);
      this.#found.set(key, found);
    }
    return found;
  }

  /** A declaration's lines (its doc comment first), at most `max`, as a scope of their own. */
  text(site: Site, max: number): ScopeText | undefined {
    const lines = this.world.lines(site);
    if (!lines) return undefined;
    const { startLine, endLine, nameLine } = site.declaration;
    const last = Math.min(endLine, Math.max(nameLine, startLine) + max - 1, lines.lineCount - 1);
    const out: string[] = [];
    for (let line = startLine; line <= last; line++) out.push(lines.line(line));
    return new ScopeText(out.join("\n"), this.rules.expressions.dialect);
  }
}

/** A type named by its declaration's name alone. */
export function named(name: string): TypeExpr {
  return { kind: "named", name, args: [] };
}
