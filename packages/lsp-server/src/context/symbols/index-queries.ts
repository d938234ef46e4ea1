// What the workspace symbol index is asked for a reference that imports did not answer: the lookups to try, the
// deepest part of its chain first. Pure; `workspace-symbols.ts` runs them.
import type { Declaration, Family, ModuleOutline, Reference } from "../types.js";

/** One lookup in the index. */
export type IndexStep =
  /** The member `name` of a top-level declaration named `owner` (`Pry.binding_for`, `JsonConvert.Serialize`). */
  | { readonly kind: "member"; readonly owner: string; readonly name: string }
  /** A top-level declaration `name`, with its member `member` when it has it and its snippet does not show it. */
  | { readonly kind: "top"; readonly name: string; readonly member?: string }
  /** The member `name` of any top-level declaration: a method called on an implicit receiver (inherited, mixed in). */
  | { readonly kind: "method"; readonly name: string };

/** The lookups for one reference, in order: the first that finds a declaration answers. */
export interface IndexQuery {
  readonly reference: Reference;
  readonly steps: readonly IndexStep[];
}

/**
 * Families where a bare call names a method of the current object's class, which may be inherited or mixed in
 * from another file (Ruby's implicit `self`): there a bare lower-case name no import binds is looked up among the
 * index's members too.
 */
const IMPLICIT_RECEIVER: ReadonlySet<Family> = new Set(["ruby"]);

/** The names of a reference: `a`, `a.b`, `A::B::c` (its chain when it has one). */
export function chainOf(reference: Reference): readonly string[] {
  return (
    reference.chain ??
    (reference.member === undefined ? [reference.name] : [reference.name, reference.member])
  );
}

function member(d: Declaration | undefined, name: string): Declaration | undefined {
  return d?.members?.find((m) => m.name === name);
}

/**
 * The index lookups of a reference, deepest first, leaving out what the current file declares itself: for
 * `A::B.c` the member `c` of `B`, a top-level `c`, the member `B` of `A`, a top-level `B` (with its member `c`),
 * then `A` (with `B`); for a bare `c` the top-level `c`, and in {@link IMPLICIT_RECEIVER} families, when `c` is lower case,
 * a member `c` of any declaration. No lookups (an empty list) when the current file declares the deepest member
 * asked (its own class's method) or, for a bare name, the name itself.
 */
export function indexSteps(
  reference: Reference,
  family: Family,
  current: ModuleOutline,
  enclosing?: string,
): IndexStep[] {
  const chain = chainOf(reference);
  const own = new Map<string, Declaration>();
  for (const d of current.declarations) if (!own.has(d.name)) own.set(d.name, d);
  const steps: IndexStep[] = [];
  // The deepest name first, as a member of the name before it, then on its own: in `Pry::Method::Patcher`,
  // `Patcher` before `Method` (which `Pry` may also have as a method: `def Method(obj)`).
  for (let k = chain.length - 1; k >= 0; k--) {
    const name = chain[k]!;
    if (k > 0) {
      const owner = chain[k - 1]!;
      // The file's own `owner` has it: nothing to look up (a reopened class elsewhere is not the nearer answer).
      if (k === chain.length - 1 && member(own.get(owner), name)) return [];
      steps.push({ kind: "member", owner, name });
    }
    if (own.has(name)) {
      if (chain.length === 1) return [];
      continue;
    }
    const next = chain[k + 1];
    steps.push(next === undefined ? { kind: "top", name } : { kind: "top", name, member: next });
  }
  const name = chain[0]!;
  if (chain.length === 1 && current.declarations.some((d) => member(d, name))) return [];
  // A bare name in a method: a member of the class the cursor is in (declared in another file: C++'s out-of-class
  // definitions, a class reopened) or of its bases.
  if (chain.length === 1 && enclosing !== undefined) steps.push({ kind: "member", owner: enclosing, name });
  if (chain.length === 1 && IMPLICIT_RECEIVER.has(family) && !/^\p{Lu}/u.test(name))
    steps.push({ kind: "method", name });
  return steps;
}
