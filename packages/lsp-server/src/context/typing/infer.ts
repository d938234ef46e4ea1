// The type a value has, built from what the code declares, one or two steps at a time and never guessed: an
// annotation, the declared return type of what is called, a constructor, an await, a field's declared type. Walks
// any language's rule table; names are resolved by the world it is given (the edge: import resolution).
import type { TextLines } from "../scan/source-text.js";
import type { Declaration } from "../types.js";
import { parseValue, type ValueExpr } from "./expression.js";
import type { Binding, TypingRules } from "./rules.js";
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

/** Where a value is written: the file whose names it uses, and the code above it. */
export interface Place {
  readonly file: string;
  readonly scope: ScopeText;
}

/** A type as written in a file, with the type whose member declared it (for `Self`, `this`); or already found. */
interface Typed {
  readonly type: TypeExpr;
  readonly file: string;
  readonly owner?: Site;
  readonly site?: Site;
}

/** Bounds of one inference. */
export interface InferLimits {
  /** Names resolved at most. Default 16. */
  readonly lookups?: number;
  /** Steps nested at most (a value's binding's value's member…). Default 6. */
  readonly depth?: number;
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
const MEMBER_LINES = 12;
/** Lines of a class's body read for its fields at most. */
const BODY_LINES = 600;

/**
 * One inference's walk: the type of the cursor's receiver, the members of a type and of its bases. Each lookup
 * counts against `lookups`; past it, or past `depth`, it goes without.
 */
export class TypeInference {
  readonly #rules: TypingRules;
  readonly #world: TypeWorld;
  #lookups: number;
  readonly #depth: number;
  readonly #found = new Map<string, Promise<readonly Site[]>>();
  readonly #bases = new Map<Declaration, Promise<Site[]>>();

  constructor(rules: TypingRules, world: TypeWorld, limits: InferLimits = {}) {
    this.#rules = rules;
    this.#world = world;
    this.#lookups = limits.lookups ?? 16;
    this.#depth = limits.depth ?? 6;
  }

  /** The type declaration of the value `expr` written at `at`, or undefined when the declarations do not tell. */
  async typeOf(expr: ValueExpr, at: Place): Promise<Site | undefined> {
    return this.#site(await this.#value(expr, at, 0), 0);
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
    const lines = this.#text(site, BODY_LINES);
    const written = new Set([...(lines ? this.#rules.bases(lines, site.declaration.name) : [])]);
    for (const base of site.declaration.bases ?? []) written.add(base);
    const out: Site[] = [];
    for (const base of written) {
      const found = await this.#site({ type: parseType(base, this.#rules.types), file: site.path }, 1);
      if (found && found.declaration !== site.declaration) out.push(found);
    }
    return out;
  }

  async #value(expr: ValueExpr, at: Place, depth: number): Promise<Typed | undefined> {
    if (depth > this.#depth) return undefined;
    const rules = this.#rules;
    switch (expr.kind) {
      case "name":
        return this.#name(expr.name, at, depth);
      case "self": {
        const type = rules.selfType(at.scope);
        return type === undefined ? undefined : this.#written(type, at.file);
      }
      case "member":
        return this.#member(expr.of, expr.name, at, depth);
      case "call":
        return this.#call(expr.callee, at, depth);
      case "path": {
        const found = await this.#lookup(expr.path.join("::"), at.file);
        const site = found.find((s) => TYPE_KINDS.has(s.declaration.kind));
        return site ? { type: named(site.declaration.name), file: site.path, site } : undefined;
      }
      case "new":
        return this.#written(expr.type, at.file);
      case "typed":
        return this.#written(expr.type, at.file);
      case "await": {
        const of = await this.#value(expr.of, at, depth + 1);
        if (!of || of.site) return of;
        const type = rules.awaited(of.type);
        return type && { ...of, type };
      }
      case "try": {
        const of = await this.#value(expr.of, at, depth + 1);
        const type = of && !of.site ? rules.tried?.(of.type) : undefined;
        return type && { ...of!, type };
      }
    }
  }

  #written(type: string, file: string): Typed {
    return { type: parseType(type, this.#rules.types), file };
  }

  /** A name: its binding above (a local, a parameter), else what the file means by it (a module-level value). */
  async #name(name: string, at: Place, depth: number): Promise<Typed | undefined> {
    const rules = this.#rules;
    if (rules.selfNames?.includes(name)) return this.#value({ kind: "self" }, at, depth);
    const binding = rules.binding(at.scope, name);
    if (binding) return this.#bound(binding, at, depth);
    const found = await this.#lookup(name, at.file);
    const site = found.find((s) => s.declaration.kind === "variable" || s.declaration.kind === "field");
    if (!site) return undefined;
    const lines = this.#text(site, MEMBER_LINES);
    const declared = lines && rules.declared(lines, name);
    return declared && this.#bound(declared, { file: site.path, scope: lines! }, depth);
  }

  /** A binding's type: its annotation, else its value's type (read in the code above it). */
  async #bound(binding: Binding, at: Place, depth: number): Promise<Typed | undefined> {
    let typed: Typed | undefined;
    if (binding.type !== undefined) typed = this.#written(binding.type, at.file);
    else if (binding.value !== undefined) {
      const value = parseValue(binding.value, this.#rules.expressions);
      const scope = binding.at === undefined ? at.scope : at.scope.before(binding.at);
      typed = value && (await this.#value(value, { file: at.file, scope }, depth + 1));
    }
    if (!typed) return undefined;
    if (binding.index !== undefined) {
      if (typed.site || typed.type.kind !== "tuple") return undefined;
      const item = typed.type.of[binding.index];
      return item && { ...typed, type: item };
    }
    if (binding.inner) {
      if (typed.site) return undefined;
      const item = this.#rules.element(typed.type);
      return item && { ...typed, type: item };
    }
    return typed;
  }

  /** `of.name`: the field's declared type (a member, else a field the class's body assigns). */
  async #member(of: ValueExpr, name: string, at: Place, depth: number): Promise<Typed | undefined> {
    const owner = await this.#site(await this.#value(of, at, depth + 1), depth + 1);
    if (!owner) return undefined;
    const found = await this.member(owner, name, depth + 1);
    if (found) {
      const lines = this.#text({ path: found.owner.path, declaration: found.member }, MEMBER_LINES);
      const declared = lines && this.#rules.declared(lines, name);
      const typed =
        declared && (await this.#bound(declared, { file: found.owner.path, scope: lines! }, depth + 1));
      if (typed) return { ...typed, owner: found.owner };
    }
    // A field the class's body assigns (`self.f = X()` in `__init__`, a constructor's parameter property).
    const body = this.#text(found?.owner ?? owner, BODY_LINES);
    const assigned = body && this.#rules.assigned?.(body, name);
    if (!assigned) return undefined;
    const typed = await this.#bound(
      assigned,
      { file: (found?.owner ?? owner).path, scope: body! },
      depth + 1,
    );
    return typed && { ...typed, owner: found?.owner ?? owner };
  }

  /** A call: a function's declared return type, a class's instance, a method's return type on its receiver. */
  async #call(callee: ValueExpr, at: Place, depth: number): Promise<Typed | undefined> {
    const rules = this.#rules;
    if (callee.kind === "name") {
      const bound = rules.binding(at.scope, callee.name);
      if (bound) {
        const fn = await this.#bound(bound, at, depth + 1);
        return fn && !fn.site && fn.type.kind === "function" && fn.type.returns
          ? { ...fn, type: fn.type.returns }
          : undefined;
      }
      if (rules.selfNames?.includes(callee.name)) return this.#value({ kind: "self" }, at, depth);
      return this.#called(await this.#lookup(callee.name, at.file), undefined);
    }
    if (callee.kind === "path") {
      const ownerPath = callee.path.slice(0, -1).join("::");
      const last = callee.path.at(-1)!;
      const ownerName = callee.path.at(-2);
      const owner =
        ownerName !== undefined && rules.selfNames?.includes(ownerName)
          ? await this.#site(await this.#value({ kind: "self" }, at, depth + 1), depth + 1)
          : ownerPath === ""
            ? undefined
            : (await this.#lookup(ownerPath, at.file)).find((s) => TYPE_KINDS.has(s.declaration.kind));
      if (owner) {
        const found = await this.member(owner, last, depth + 1);
        // An enum's variant constructs the enum.
        if (found?.member.kind === "field" && owner.declaration.kind === "enum")
          return { type: named(owner.declaration.name), file: owner.path, site: owner };
        return found ? this.#returned(found.owner, found.member) : undefined;
      }
      return this.#called(await this.#lookup(callee.path.join("::"), at.file), undefined);
    }
    if (callee.kind !== "member") return undefined;
    const { of, name } = callee;
    // `ns.f()`, `pkg.F()`, `module.Class()`, `Type.create()`: a name that is no value here.
    if (of.kind === "name" && !rules.binding(at.scope, of.name) && !rules.selfNames?.includes(of.name)) {
      const found = await this.#lookup(`${of.name}.${name}`, at.file);
      if (found.length > 0) return this.#called(found, undefined);
    }
    const receiver = await this.#value(of, at, depth + 1);
    const owner = await this.#site(receiver, depth + 1);
    const found = owner && (await this.member(owner, name, depth + 1));
    if (found) return this.#returned(found.owner, found.member);
    const unwrap = rules.unwrapping?.[name];
    if (!unwrap || !receiver || receiver.site) return unwrap === "same" ? receiver : undefined;
    if (unwrap === "same") return receiver;
    const inner = rules.accessed(receiver.type);
    const arg =
      inner?.kind === "named" ? inner.args.find((a) => a.kind !== "assoc" && a.kind !== "other") : undefined;
    return arg ? { ...receiver, type: arg } : receiver;
  }

  /** What calling one of these declarations gives: a type's instance, or a function's declared return type. */
  #called(found: readonly Site[], owner: Site | undefined): Typed | undefined {
    const type = found.find((s) => TYPE_KINDS.has(s.declaration.kind) && s.declaration.kind !== "type");
    if (type) return { type: named(type.declaration.name), file: type.path, site: type };
    const fn = found.find((s) => s.declaration.kind === "function" || s.declaration.kind === "method");
    return fn ? this.#returned(owner ?? fn, fn.declaration, fn.path) : undefined;
  }

  /** A method's or function's declared return type, as its file writes it (its owner stands for `Self`). */
  #returned(owner: Site, member: Declaration, path = owner.path): Typed | undefined {
    const lines = this.#text({ path, declaration: member }, MEMBER_LINES);
    const type = lines && this.#rules.returns(lines, member.name);
    return type === undefined ? undefined : { type: parseType(type, this.#rules.types), file: path, owner };
  }

  /** The type declaration a typed value's members are looked up in (wrappers seen through, aliases followed). */
  async #site(typed: Typed | undefined, depth: number): Promise<Site | undefined> {
    if (!typed || depth > this.#depth) return undefined;
    if (typed.site) return typed.site;
    const type = this.#rules.accessed(typed.type);
    if (type?.kind !== "named") return undefined;
    if (this.#rules.selfNames?.includes(type.name)) return typed.owner;
    const found = await this.#lookup(type.name, typed.file);
    const site = found.find((s) => TYPE_KINDS.has(s.declaration.kind));
    if (!site) return undefined;
    if (site.declaration.members?.length) return site;
    const lines = this.#text(site, MEMBER_LINES);
    const aliased = lines && this.#rules.aliased?.(lines, site.declaration.name);
    if (aliased === undefined) return site;
    return (await this.#site(this.#written(aliased, site.path), depth + 1)) ?? site;
  }

  /** A member of a type, or of its bases (nearest first, a few levels deep), with the type that declares it. */
  async member(
    site: Site,
    name: string,
    depth = 0,
  ): Promise<{ owner: Site; member: Declaration } | undefined> {
    const own = site.declaration.members?.find((m) => m.name === name);
    if (own) return { owner: site, member: own };
    if (depth > this.#depth - 2) return undefined;
    for (const base of await this.bases(site)) {
      const found = await this.member(base, name, depth + 1);
      if (found) return found;
    }
    return undefined;
  }

  async #lookup(written: string, file: string): Promise<readonly Site[]> {
    const key = `${file}\0${written}`;
    let found = this.#found.get(key);
    if (!found) {
      if (this.#lookups <= 0) return [];
      this.#lookups--;
      found = this.#world.lookup(written, file).catch(() => []);
      this.#found.set(key, found);
    }
    return found;
  }

  /** A declaration's lines (its doc comment first), at most `max`, as a scope of their own. */
  #text(site: Site, max: number): ScopeText | undefined {
    const lines = this.#world.lines(site);
    if (!lines) return undefined;
    const { startLine, endLine, nameLine } = site.declaration;
    const last = Math.min(endLine, Math.max(nameLine, startLine) + max - 1, lines.lineCount - 1);
    const out: string[] = [];
    for (let line = startLine; line <= last; line++) out.push(lines.line(line));
    return new ScopeText(out.join("\n"), this.#rules.expressions.dialect);
  }
}

function named(name: string): TypeExpr {
  return { kind: "named", name, args: [] };
}
