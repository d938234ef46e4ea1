// The scope around a use in the file a resolution asks from: the namespaces and the type around a line, read
// above the cursor (what the language told of the lines there) or from the file's outline.
import type { NestedType, ParsedModule } from "../types.js";
import { declarationsNamed, enclosingType, innermostAt, nestingAt } from "./outline-lookup.js";

/** Where the cursor is, for the names a language finds by where they are used. */
export interface CursorScope {
  /** The cursor's line (0-based): each reference is `distance` lines above it. */
  readonly line: number;
  /** The types around the cursor, outermost first (`LanguageSupport.nesting`); absent: the outline says. */
  readonly nesting?: readonly NestedType[];
}

/** The namespaces and the type around the lines of one file (the one a resolution asks from). */
export class EnclosingScope {
  constructor(
    private readonly from: ParsedModule,
    private readonly at: CursorScope | undefined,
  ) {}

  /**
   * The namespace path around a line of a file: for the current file near the cursor, what the language read of
   * the lines above it (`CursorScope.nesting`); else the file's outline.
   */
  nestingIn(module: ParsedModule, line: number | undefined): string[] {
    if (module === this.from && this.at?.nesting) return this.at.nesting.flatMap((t) => t.path);
    return nestingAt(module, line);
  }

  /**
   * What decides, besides its names, what a reference at `line` reaches: the namespaces and the class around it
   * ("" when there are none).
   */
  keyAt(line: number | undefined): string {
    const enclosing = this.enclosing(line);
    const nesting = this.nestingIn(this.from, line);
    if (nesting.length === 0 && enclosing === undefined) return "";
    return [nesting.join("::"), enclosing?.outOfLine ?? "", (enclosing?.bases ?? []).join(",")].join("\0");
  }

  /**
   * The type around a line of the current file, with its bases: those its opening line names (read above the
   * cursor, `CursorScope.nesting`) and those of the file's declarations of that name (mixins in its body); or, in
   * a function defined out of its class (`Scanner::scan`), that class's path.
   */
  enclosing(
    line: number | undefined,
  ): { bases?: readonly string[]; startLine: number; outOfLine?: string } | undefined {
    const lexical = this.at?.nesting?.at(-1);
    let name = lexical?.external ? undefined : lexical?.name;
    let outOfLine = lexical?.external ? lexical.path.join("::") : undefined;
    if (lexical === undefined) {
      const inner = innermostAt(this.from, line);
      // A function named with its class (`Scanner::scan`, defined out of the class): the class is elsewhere.
      const qualified = inner?.kind === "function" ? /^(.+)::[^:]+$/.exec(inner.name) : null;
      if (qualified) outOfLine = qualified[1]!;
      else name = enclosingType(this.from, line)?.name;
    }
    const bases = new Set(lexical?.bases ?? []);
    if (name !== undefined)
      for (const d of declarationsNamed(this.from, name) ?? []) for (const b of d.bases ?? []) bases.add(b);
    const startLine = line ?? 0;
    if (outOfLine !== undefined) return { startLine, outOfLine };
    return bases.size === 0 ? undefined : { bases: [...bases], startLine };
  }
}
