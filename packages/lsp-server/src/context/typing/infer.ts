// The type a value has, built from what the code declares, one or two steps at a time and never guessed: an
// annotation, the declared return type of what is called, a constructor, an await, a field's declared type. Walks
// any language's rule table; names are resolved by the world it is given (the edge: import resolution).
import type { Declaration } from "../types.js";
import { parseValue, type ValueExpr } from "./expression.js";
import type { Binding, Callback, TypingRules } from "./rules.js";
import type { ScopeText } from "./scope-text.js";
import type { TypeExpr } from "./type-expr.js";
import {
  BODY_LINES,
  MEMBER_LINES,
  named,
  type Site,
  TYPE_KINDS,
  type Typed,
  TypeSites,
  type TypeWorld,
} from "./type-sites.js";

/** Where a value is written: the file whose names it uses, and the code above it. */
export interface Place {
  readonly file: string;
  readonly scope: ScopeText;
}

/** The type a value has: its declaration, and the member of it that spells the value's type out, if it does. */
export interface TypeFound {
  readonly site: Site;
  /**
   * When the value's type is a literal written in a member's signature (`snapshot(): { text: string }`), the type
   * that declares that member is `site`, and this is the member: its signature shows the value's members.
   */
  readonly focus?: string;
}

/** Bounds of one inference. */
export interface InferLimits {
  /** Names resolved at most. Default 16. */
  readonly lookups?: number;
  /** Steps nested at most (a value's binding's value's member…, a chain of calls). Default 16. */
  readonly depth?: number;
}

/** Bindings of a name tried at most, nearest first, for one whose type the declarations tell. */
const BINDINGS_TRIED = 3;
/**
 * One inference's walk from a value to its type (the cursor's receiver's), through bindings, calls, members and
 * callbacks; the declarations it reads are {@link TypeSites}'. Each lookup counts against `lookups`; past it, or
 * past `depth`, it goes without.
 */
export class TypeInference {
  readonly #rules: TypingRules;
  readonly #sites: TypeSites;
  readonly #depth: number;

  constructor(rules: TypingRules, world: TypeWorld, limits: InferLimits = {}) {
    this.#rules = rules;
    this.#depth = limits.depth ?? 16;
    this.#sites = new TypeSites(rules, world, { lookups: limits.lookups ?? 16, depth: this.#depth });
  }

  /** The type declaration of the value `expr` written at `at`, or undefined when the declarations do not tell. */
  async typeOf(expr: ValueExpr, at: Place): Promise<TypeFound | undefined> {
    const typed = await this.#value(expr, at, 0);
    const site = await this.#sites.site(typed, 0);
    if (site) return { site };
    // A type literal spelled out in a member's signature: that member, in its type, shows it.
    if (typed?.owner && typed.member !== undefined && literal(typed.type, this.#rules))
      return { site: typed.owner, focus: typed.member };
    return undefined;
  }

  /** The type's bases, found as its file names them (superclasses, embedded types), nearest first. */
  bases(site: Site): Promise<Site[]> {
    return this.#sites.bases(site);
  }

  async #value(expr: ValueExpr, at: Place, depth: number): Promise<Typed | undefined> {
    if (depth > this.#depth) return undefined;
    const rules = this.#rules;
    switch (expr.kind) {
      case "name":
        return this.#name(expr.name, at, depth);
      case "self": {
        const type = rules.selfType(at.scope);
        return type === undefined ? undefined : this.#sites.written(type, at.file);
      }
      case "member":
        return this.#member(expr.of, expr.name, at, depth);
      case "call":
        return this.#call(expr.callee, at, depth);
      case "path": {
        const found = await this.#sites.lookup(expr.path.join("::"), at.file);
        const site = found.find((s) => TYPE_KINDS.has(s.declaration.kind));
        return site ? { type: named(site.declaration.name), file: site.path, site } : undefined;
      }
      case "new":
        return this.#sites.written(expr.type, at.file);
      case "typed":
        return this.#sites.written(expr.type, at.file);
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
      case "either":
        // The first of them whose type the declarations tell (typed code gives them one type).
        for (const one of expr.of) {
          const typed = await this.#value(one, at, depth + 1);
          if (typed) return typed;
        }
        return undefined;
    }
  }

  /** A name: its binding above (a local, a parameter), else what the file means by it (a module-level value). */
  async #name(name: string, at: Place, depth: number): Promise<Typed | undefined> {
    const rules = this.#rules;
    if (rules.selfNames?.includes(name)) return this.#value({ kind: "self" }, at, depth);
    // The nearest binding whose type the declarations tell (a name bound again to what a helper returns keeps its
    // type: `text = highlighter(text)`), of the last few.
    let scope = at.scope;
    for (let tries = 0; tries < BINDINGS_TRIED; tries++) {
      const binding = rules.binding(scope, name);
      if (!binding) break;
      const typed = await this.#bound(binding, { file: at.file, scope }, depth);
      if (typed || binding.at === undefined || binding.at <= 0) return typed;
      scope = scope.before(binding.at);
    }
    if (scope !== at.scope) return undefined;
    // A field named without `this.` (Java's `store`, C++'s `mem_`).
    const self = { kind: "member", of: { kind: "self" }, name } as const;
    const own = rules.implicitSelf ? await this.#value(self, at, depth + 1) : undefined;
    if (own) return own;
    const found = await this.#sites.lookup(name, at.file);
    const site = found.find((s) => s.declaration.kind === "variable" || s.declaration.kind === "field");
    if (!site) return undefined;
    const lines = this.#sites.text(site, MEMBER_LINES);
    const declared = lines && rules.declared(lines, name);
    return declared && this.#bound(declared, { file: site.path, scope: lines! }, depth);
  }

  /** A binding's type: its annotation, else its value's type (read in the code above it). */
  async #bound(binding: Binding, at: Place, depth: number): Promise<Typed | undefined> {
    if (binding.callback) {
      const scope = binding.at === undefined ? at.scope : at.scope.before(binding.at);
      return this.#callback(binding.callback, { file: at.file, scope }, at.scope, depth + 1);
    }
    let typed: Typed | undefined;
    if (binding.type !== undefined) typed = this.#sites.written(binding.type, at.file);
    else if (binding.value !== undefined) {
      const value = parseValue(binding.value, this.#rules.expressions);
      const scope = binding.at === undefined ? at.scope : at.scope.before(binding.at);
      typed = value && (await this.#value(value, { file: at.file, scope }, depth + 1));
    }
    if (!typed) return undefined;
    if (binding.member !== undefined) {
      const owner = await this.#sites.site(typed, depth + 1);
      return owner && this.#field(owner, binding.member, depth + 1);
    }
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

  /**
   * An untyped parameter of a function written as an argument or a property: the type its context declares for
   * it. `at` is the code before the function; `whole`, the code the function's position counts in.
   */
  async #callback(
    callback: Callback,
    at: Place,
    whole: ScopeText,
    depth: number,
  ): Promise<Typed | undefined> {
    if (depth > this.#depth) return undefined;
    const rules = this.#rules;
    if (callback.context === "call") {
      const callee = parseValue(callback.callee, rules.expressions);
      if (!callee) return undefined;
      // `items.map((item) => …)`: an element of the receiver, when the language's own collection has it.
      if (callee.kind === "member" && rules.iterations?.[callee.name] === callback.parameter) {
        const receiver = await this.#value(callee.of, at, depth + 1);
        const item = receiver && !receiver.site ? rules.element(receiver.type) : undefined;
        if (item) return { ...receiver!, type: item };
      }
      const fn = await this.#parameterOf(callee, callback.argument, at, depth + 1);
      return fn && functionParameter(fn, callback.parameter);
    }
    const object = await this.#objectAt(whole, callback.object, at, depth + 1);
    const owner = await this.#sites.site(object, depth + 1);
    const found = owner && (await this.#sites.member(owner, callback.key, depth + 1));
    if (!found) return undefined;
    const lines = this.#sites.text({ path: found.owner.path, declaration: found.member }, MEMBER_LINES);
    if (!lines) return undefined;
    const written = rules.parameters?.(lines, callback.key)?.[callback.parameter];
    if (written) return { ...this.#sites.written(written, found.owner.path), owner: found.owner };
    const declared = rules.declared(lines, callback.key);
    if (declared?.type === undefined) return undefined;
    return functionParameter(
      { ...this.#sites.written(declared.type, found.owner.path), owner: found.owner },
      callback.parameter,
    );
  }

  /** The declared type of a call's `argument`-th parameter, as the called declaration writes it. */
  async #parameterOf(
    callee: ValueExpr,
    argument: number,
    at: Place,
    depth: number,
  ): Promise<Typed | undefined> {
    let site: Site | undefined;
    let owner: Site | undefined;
    if (callee.kind === "name") {
      site = (await this.#sites.lookup(callee.name, at.file)).find((s) =>
        FUNCTION_KINDS.has(s.declaration.kind),
      );
    } else if (callee.kind === "member") {
      const { of, name } = callee;
      if (of.kind === "name" && !this.#rules.binding(at.scope, of.name))
        site = (await this.#sites.lookup(`${of.name}.${name}`, at.file)).find((s) =>
          FUNCTION_KINDS.has(s.declaration.kind),
        );
      if (!site) {
        owner = await this.#sites.site(await this.#value(of, at, depth + 1), depth + 1);
        const found = owner && (await this.#sites.member(owner, name, depth + 1, true));
        if (found) {
          owner = found.owner;
          site = { path: found.owner.path, declaration: found.member };
        }
      }
    }
    if (!site) return undefined;
    const lines = this.#sites.text(site, MEMBER_LINES);
    const written = lines && this.#rules.parameters?.(lines, site.declaration.name)?.[argument];
    return written ? { ...this.#sites.written(written, site.path), owner: owner ?? site } : undefined;
  }

  /** The type of the object literal whose `{` is at `offset` in `scope`, from its context. */
  async #objectAt(scope: ScopeText, offset: number, at: Place, depth: number): Promise<Typed | undefined> {
    const context = this.#rules.objectContext?.(scope, offset);
    if (!context) return undefined;
    if ("type" in context) return this.#sites.written(context.type, at.file);
    const callee = parseValue(context.callee, this.#rules.expressions);
    return callee && this.#parameterOf(callee, context.argument, at, depth + 1);
  }

  /** `of.name`: the field's declared type (a member, else a field the class's body assigns). */
  async #member(of: ValueExpr, name: string, at: Place, depth: number): Promise<Typed | undefined> {
    const owner = await this.#sites.site(await this.#value(of, at, depth + 1), depth + 1);
    return owner && this.#field(owner, name, depth);
  }

  /** The declared type of a type's field (its own or a base's member, else a field its body assigns). */
  async #field(owner: Site, name: string, depth: number): Promise<Typed | undefined> {
    const found = await this.#sites.member(owner, name, depth + 1);
    if (found) {
      const lines = this.#sites.text({ path: found.owner.path, declaration: found.member }, MEMBER_LINES);
      const declared = lines && this.#rules.declared(lines, name);
      const typed =
        declared && (await this.#bound(declared, { file: found.owner.path, scope: lines! }, depth + 1));
      if (typed) return { ...typed, owner: found.owner, member: name };
    }
    // A field the class's body assigns (`self.f = X()` in `__init__`, a constructor's parameter property).
    const holder = found?.owner ?? owner;
    const body = this.#sites.text(holder, BODY_LINES);
    const assigned = body && this.#rules.assigned?.(body, name);
    if (!assigned) return undefined;
    const typed = await this.#bound(assigned, { file: holder.path, scope: body! }, depth + 1);
    return typed && { ...typed, owner: holder, member: name };
  }

  /** A call: a function's declared return type, a class's instance, a method's return type on its receiver. */
  async #call(callee: ValueExpr, at: Place, depth: number): Promise<Typed | undefined> {
    const rules = this.#rules;
    if (callee.kind === "name") {
      const bound = rules.binding(at.scope, callee.name);
      if (bound) {
        const fn = await this.#bound(bound, at, depth + 1);
        if (fn && !fn.site && fn.type.kind === "function" && fn.type.returns)
          return { ...fn, type: fn.type.returns };
        // A value whose type can be called (Python's `__call__`).
        const owner = rules.callMember && fn ? await this.#sites.site(fn, depth + 1) : undefined;
        const found = owner && (await this.#sites.member(owner, rules.callMember!, depth + 1, true));
        return found ? this.#sites.returned(found.owner, found.member) : undefined;
      }
      if (rules.selfNames?.includes(callee.name)) return this.#value({ kind: "self" }, at, depth);
      return called(this.#sites, await this.#sites.lookup(callee.name, at.file), undefined);
    }
    if (callee.kind === "path") {
      const ownerPath = callee.path.slice(0, -1).join("::");
      const last = callee.path.at(-1)!;
      const ownerName = callee.path.at(-2);
      const owner =
        ownerName !== undefined && rules.selfNames?.includes(ownerName)
          ? await this.#sites.site(await this.#value({ kind: "self" }, at, depth + 1), depth + 1)
          : ownerPath === ""
            ? undefined
            : (await this.#sites.lookup(ownerPath, at.file)).find((s) => TYPE_KINDS.has(s.declaration.kind));
      if (owner) {
        const found = await this.#sites.member(owner, last, depth + 1, true);
        // An enum's variant constructs the enum.
        if (found?.member.kind === "field" && owner.declaration.kind === "enum")
          return { type: named(owner.declaration.name), file: owner.path, site: owner };
        return found ? this.#sites.returned(found.owner, found.member) : undefined;
      }
      return called(this.#sites, await this.#sites.lookup(callee.path.join("::"), at.file), undefined);
    }
    if (callee.kind !== "member") return undefined;
    const { of, name } = callee;
    // `ns.f()`, `pkg.F()`, `module.Class()`, `Type.create()`: a name that is no value here.
    if (of.kind === "name" && !rules.binding(at.scope, of.name) && !rules.selfNames?.includes(of.name)) {
      const found = await this.#sites.lookup(`${of.name}.${name}`, at.file);
      if (found.length > 0) return called(this.#sites, found, undefined);
    }
    const receiver = await this.#value(of, at, depth + 1);
    const owner = await this.#sites.site(receiver, depth + 1);
    const found = owner && (await this.#sites.member(owner, name, depth + 1, true));
    if (found) return this.#sites.returned(found.owner, found.member);
    const unwrap = rules.unwrapping?.[name];
    if (!unwrap || !receiver || receiver.site) return unwrap === "same" ? receiver : undefined;
    if (unwrap === "same") return receiver;
    const inner = rules.accessed(receiver.type);
    const arg =
      inner?.kind === "named" ? inner.args.find((a) => a.kind !== "assoc" && a.kind !== "other") : undefined;
    return arg ? { ...receiver, type: arg } : receiver;
  }
}

/** What calling one of these declarations gives: a type's instance, or a function's declared return type. */
function called(sites: TypeSites, found: readonly Site[], owner: Site | undefined): Typed | undefined {
  const type = found.find((s) => TYPE_KINDS.has(s.declaration.kind) && s.declaration.kind !== "type");
  if (type) return { type: named(type.declaration.name), file: type.path, site: type };
  const fn = found.find((s) => s.declaration.kind === "function" || s.declaration.kind === "method");
  return fn ? sites.returned(owner ?? fn, fn.declaration, fn.path) : undefined;
}

/** Kinds of declarations that can be called. */
const FUNCTION_KINDS: ReadonlySet<Declaration["kind"]> = new Set(["function", "method", "variable", "field"]);

/** A function type's `index`-th parameter's type (an optional function type's too), when written. */
function functionParameter(fn: Typed, index: number): Typed | undefined {
  let type = fn.type;
  if (type.kind === "union") {
    const real = type.of.filter((t) => t.kind === "function");
    if (real.length !== 1) return undefined;
    type = real[0]!;
  }
  const param = type.kind === "function" ? type.params?.[index] : undefined;
  return param && !(param.kind === "other" && param.text === "") ? { ...fn, type: param } : undefined;
}

/** Whether a type is a literal spelled out (`{ a: string }`), maybe with `undefined` or `null` beside it. */
function literal(type: TypeExpr, rules: TypingRules): boolean {
  if (type.kind === "union") {
    const real = type.of.filter((t) => !(t.kind === "named" && /^(?:undefined|null|None)$/.test(t.name)));
    return real.length === 1 && literal(real[0]!, rules);
  }
  return type.kind === "other" && type.text.startsWith("{") && rules.family === "typescript";
}
