// The shape of a language's typing rule table: how its code binds a name, declares a type, returns one, and which
// wrappers a member access sees through. One table per language in `rules/`; `infer.ts` walks any of them.
import type { Family } from "../types.js";
import type { ExpressionSyntax } from "./expression.js";
import type { OutlineSyntax } from "./outline.js";
import type { ScopeText } from "./scope-text.js";
import type { TypeExpr, TypeSyntax } from "./type-expr.js";

/** How a name is bound where it is used: its declared type, or the value it is given. */
export interface Binding {
  /** The type as written (an annotation: `x: T`, `var x T`, `@param {T} x`). */
  readonly type?: string;
  /** The value as written (an initializer: `= connect("smtp")`, `:= f()`, `self.f = X()`). */
  readonly value?: string;
  /** The position of the name among several bound by one call (Go's `a, err := f()`: 0). */
  readonly index?: number;
  /**
   * The name is bound to what the value holds rather than the value: an element (`for x of xs`, `for x in xs`,
   * `for _, x := range xs`) or the inside of an option (`if let Some(x) = …`).
   */
  readonly inner?: boolean;
  /**
   * The name is a parameter of a function written as an argument or a property, without a type: its type is what
   * the function's context declares (`operate((source, subscriber) => …)`: `operate`'s parameter's).
   */
  readonly callback?: Callback;
  /** The name is bound to this member of the value (a destructuring `const { key: name } = value`). */
  readonly member?: string;
  /** Where the binding starts in the searched code: a value is read in the code before it. */
  readonly at?: number;
}

/** Where a function without parameter types is written, and which of its parameters a name is. */
export type Callback =
  /** An argument of a call: `callee(…)`'s `argument`-th (0-based). */
  | {
      readonly context: "call";
      readonly callee: string;
      readonly argument: number;
      readonly parameter: number;
    }
  /** The value of the property `key` of the object literal whose `{` is at `object` in the searched code. */
  | {
      readonly context: "property";
      readonly object: number;
      readonly key: string;
      readonly parameter: number;
    };

/**
 * A language's typing rules. Each function reads code as the language writes it and gives types as written
 * (strings a {@link TypeSyntax} parses); nothing resolves a name here. Pure, each table-tested.
 */
export interface TypingRules {
  readonly family: Family;
  readonly expressions: ExpressionSyntax;
  readonly types: TypeSyntax;
  readonly outline: OutlineSyntax;
  /**
   * How `name` is bound at the end of `scope` (the lines above the cursor, its line last): the nearest declaration
   * above (a local, a parameter of the function around), or undefined.
   */
  binding(scope: ScopeText, name: string): Binding | undefined;
  /** The type `this`/`self` is at the end of `scope`, as written: the class around, Rust's `impl` type. */
  selfType(scope: ScopeText): string | undefined;
  /**
   * A field's, property's or variable's declared type or value, from its declaration's lines (the doc comment
   * first, when it has one). A getter or property method gives its return type.
   */
  declared(lines: ScopeText, name: string): Binding | undefined;
  /** A function's or method's declared return type, from its declaration's lines (its doc comment first). */
  returns(lines: ScopeText, name: string): string | undefined;
  /** A function's or method's parameters' declared types, in order (undefined for one without), or undefined. */
  parameters?(lines: ScopeText, name: string): Array<string | undefined> | undefined;
  /**
   * What gives the type of an object literal whose `{` is at `at` in `scope`: its context's type as written (an
   * annotated declaration `const x: T = {`, `satisfies T`), or the call it is an argument of.
   */
  objectContext?(
    scope: ScopeText,
    at: number,
  ): { readonly type: string } | { readonly callee: string; readonly argument: number } | undefined;
  /**
   * Methods of the language's collections whose callback's parameter at this index is an element of the
   * receiver (`items.map((item) => …)`: 0; `reduce`: 1).
   */
  readonly iterations?: Readonly<Record<string, number>>;
  /**
   * A field a class's body assigns or declares besides its members: `this.f = …`, a constructor's parameter
   * property, `self.f: T = …` in a method. `body` is the class's whole text.
   */
  assigned?(body: ScopeText, name: string): Binding | undefined;
  /** What the aliased type of a type alias is (`type X = Y`), from its lines; undefined when it is no alias. */
  aliased?(lines: ScopeText, name: string): string | undefined;
  /** The bases of a type, as written, from its declaration's lines: `extends`, superclasses, Go's embedded types. */
  bases(lines: ScopeText, name: string): string[];
  /** What awaiting a value of `type` gives (`Promise<X>` → X); the type itself when it is no awaitable. */
  awaited(type: TypeExpr): TypeExpr | undefined;
  /** What `?` gives (Rust: `Result<X, E>`, `Option<X>` → X). */
  tried?(type: TypeExpr): TypeExpr | undefined;
  /**
   * The type a member access on a value of `type` finds its members in: the wrappers through which the access is
   * still on X unwrapped (`X | undefined`, `Optional[X]`, `*X`, `&X`, `Box<X>`); undefined to go without (a union
   * of two types, a function).
   */
  accessed(type: TypeExpr): TypeExpr | undefined;
  /** What an element of a value of `type` is (`X[]`, `list[X]`, `[]X`, `Vec<X>` → X), or the inside of an option. */
  element(type: TypeExpr): TypeExpr | undefined;
  /**
   * Methods of the language's own wrappers whose result is what they wrap (Rust's `unwrap`, `expect`: `inner`) or
   * the value's own type (`clone`: `same`), when the receiver's type is not the workspace's.
   */
  readonly unwrapping?: Readonly<Record<string, "inner" | "same">>;
  /** The member that calling a value of a type calls (Python's `__call__`). */
  readonly callMember?: string;
  /**
   * A name no declaration above binds may be a field of the type around the cursor, written without `this.` (Java,
   * C#, C++, Kotlin, Swift): its declared type, when that type has such a field.
   */
  readonly implicitSelf?: boolean;
  /** Type names that mean the type that declares the member (Rust's `Self`, TypeScript's `this`). */
  readonly selfNames?: readonly string[];
  /**
   * Members a value's access never offers (constructors, Python's dunder methods), by name and by the signature
   * the outline would show (a TypeScript constructor that declares parameter properties is shown).
   */
  hidden(name: string, signature: string): boolean;
}
