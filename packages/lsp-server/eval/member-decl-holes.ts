// The member-access oracle for Java, C# and C++ (issue 24): holes at `x.m` and `x->m` where x is a local, a
// parameter or a field of the current file whose declared type is a class of another corpus file, m one of that
// class's own members. Ground truth from declarations only: x's type as the current file declares it (ctags' type
// of a C++ local, parameter or member; the Java or C# declaration's line, the enclosing method's signature), m's
// declaration lines from ctags' tags scoped in that type. Shares no code with the server. Pure.
import type { Tag } from "./ctags.js";
import type { DeclarationLine, Hole } from "./hole.js";
import { LANGUAGES, type Language, type ReceiverSpec } from "./languages.js";
import { type CorpusView, ReachIndex } from "./reach.js";
import { blankNonCode } from "./source-lexer.js";
import { lineAt, lineStartsOf } from "./tag-holes.js";

/** A value's declared type, as the oracle reads it: the type's simple name, and whether x points to it. */
export interface DeclaredType {
  readonly name: string;
  readonly pointer: boolean;
}

/** Modifiers and annotations that may stand before a parameter's type (Java, C#). */
const PARAMETER_MODIFIERS =
  /^(?:@[\w.]+(?:\([^)]*\))?\s*|(?:final|ref|out|in|params|this|scoped|readonly)\s+)+/;

/** Smart pointers whose `->` reaches the pointee's members (C++). */
const SMART_POINTER = /^(?:std::)?(?:unique_ptr|shared_ptr)\s*<\s*([^<>,]+?)\s*>$/;

/**
 * A type as written (`final Store`, `List<Item>`, `a.b.Store`, `Store?`, `int[]`) reduced to its simple name: the
 * last segment of a qualified name, type arguments dropped; undefined for an array, varargs or `var`.
 */
export function simpleType(written: string): string | undefined {
  let text = written.trim().replace(/\?$/, "").trim();
  if (/\[\s*\]$|\.\.\.$/.test(text)) return undefined;
  const generic = text.indexOf("<");
  if (generic !== -1) text = text.slice(0, generic).trim();
  const name = text.split(/\.|::/).at(-1)?.trim();
  if (!name || !/^[A-Za-z_]\w*$/.test(name) || name === "var" || name === "auto") return undefined;
  return name;
}

/**
 * The type a Java or C# declaration line gives the name `x`: the type written right before it (`Store x`,
 * `final List<Item> x =`), or the class of `var x = new T(…)`; undefined when the line says neither.
 */
export function typeOnLine(line: string, x: string): string | undefined {
  const at = new RegExp(`(?<![\\w.])${x}\\s*(?:[=;,:){]|$)`).exec(line);
  if (!at) return undefined;
  const before = line.slice(0, at.index);
  const written =
    /((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\s*(?:\[\s*\])*\s*\??)\s*$/.exec(
      before,
    )?.[1];
  if (written === undefined) return undefined;
  if (/^var\b/.test(written.trim())) {
    const created = /^\s*=\s*new\s+((?:[A-Za-z_]\w*\s*\.\s*)*[A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\(/.exec(
      line.slice(at.index + x.length),
    );
    return created ? simpleType(created[1]!) : undefined;
  }
  // A keyword before the name is no type (`return x;`, `new x(`).
  if (/^(?:return|new|throw|case|else|in|is|as|await|yield|goto)$/.test(written.trim())) return undefined;
  return simpleType(written);
}

/** The parameters of a signature as written, `(final Store s, Map<K, V> m)`: name → type. */
export function signatureTypes(signature: string): Map<string, string> {
  const inner = signature.trim().replace(/^\(/, "").replace(/\)$/, "");
  const types = new Map<string, string>();
  let depth = 0;
  let start = 0;
  const take = (part: string) => {
    const text = part.replace(/=.*$/, "").trim().replace(PARAMETER_MODIFIERS, "").trim();
    const m = /^(.*?)\s*\b([A-Za-z_]\w*)$/.exec(text);
    const type = m?.[1] ? simpleType(m[1]) : undefined;
    if (m && type) types.set(m[2]!, type);
  };
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "<" || c === "(" || c === "[") depth++;
    else if (c === ">" || c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      take(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (inner.trim() !== "") take(inner.slice(start));
  return types;
}

/** A C++ `typeref` (`typename:const Item *`, `typename:std::unique_ptr<Store>`) as a declared type. */
export function typeOfTyperef(typeref: string): DeclaredType | undefined {
  let text = typeref
    .replace(/^typename:/, "")
    .replace(/\b(?:const|volatile|struct|class|typename|mutable|static)\b/g, "")
    .trim();
  let pointer = false;
  if (/\*\s*$/.test(text)) {
    pointer = true;
    text = text.replace(/\*\s*$/, "").trim();
  }
  if (text.includes("*")) return undefined;
  text = text.replace(/&+\s*$/, "").trim();
  const smart = SMART_POINTER.exec(text);
  if (smart) {
    if (pointer) return undefined;
    pointer = true;
    text = smart[1]!.trim();
  }
  if (text.includes("<")) return undefined;
  const name = simpleType(text);
  return name ? { name, pointer } : undefined;
}

/** The tags of a corpus the member oracle reads, by file and by type. */
interface MemberIndex {
  /** A type's one defining file, for types defined (as a type) in exactly one file. */
  readonly typeFile: ReadonlyMap<string, string>;
  /** The 1-based line of that type's first tag in that file: where a language server says the type is declared. */
  readonly typeLine: ReadonlyMap<string, number>;
  /** Per type name, the tags of its own members, by member name. */
  readonly members: ReadonlyMap<string, ReadonlyMap<string, readonly Tag[]>>;
  /** Per file, its tags. */
  readonly byFile: ReadonlyMap<string, readonly Tag[]>;
}

/** The innermost name of a ctags scope (`pkg.Outer.Store`, `ns::Store<T>`): `Store`. */
function innermost(scope: string): string {
  return scope.replace(/<.*>/g, "").split(/\.|::/).at(-1)?.trim() ?? "";
}

function indexMembers(tags: readonly Tag[], spec: ReceiverSpec): MemberIndex {
  const typeKinds = new Set(spec.types);
  const memberKinds = new Set(spec.members);
  const files = new Map<string, Set<string>>();
  const firstLine = new Map<string, number>();
  const members = new Map<string, Map<string, Tag[]>>();
  const byFile = new Map<string, Tag[]>();
  for (const tag of tags) {
    const list = byFile.get(tag.file);
    if (list) list.push(tag);
    else byFile.set(tag.file, [tag]);
    if (typeKinds.has(tag.kind)) {
      const set = files.get(tag.name) ?? new Set<string>();
      set.add(tag.file);
      files.set(tag.name, set);
      const key = `${tag.name}\0${tag.file}`;
      firstLine.set(key, Math.min(firstLine.get(key) ?? tag.line, tag.line));
    }
    if (
      memberKinds.has(tag.kind) &&
      tag.scope !== undefined &&
      tag.scopeKind &&
      typeKinds.has(tag.scopeKind)
    ) {
      const type = innermost(tag.scope);
      let byName = members.get(type);
      if (!byName) {
        byName = new Map();
        members.set(type, byName);
      }
      const named = byName.get(tag.name);
      if (named) named.push(tag);
      else byName.set(tag.name, [tag]);
    }
  }
  const typeFile = new Map<string, string>();
  const typeLine = new Map<string, number>();
  for (const [name, set] of files) {
    if (set.size !== 1) continue;
    const file = [...set][0]!;
    typeFile.set(name, file);
    typeLine.set(name, firstLine.get(`${name}\0${file}`)!);
  }
  return { typeFile, typeLine, members, byFile };
}

/** The innermost function or method tag of a file whose lines hold `line` (1-based). */
function enclosingFunction(tags: readonly Tag[], kinds: ReadonlySet<string>, line: number): Tag | undefined {
  let found: Tag | undefined;
  for (const tag of tags) {
    if (!kinds.has(tag.kind) || tag.end === undefined || tag.line > line || line > tag.end) continue;
    if (!found || tag.line >= found.line) found = tag;
  }
  return found;
}

/**
 * The declared type of `x` used at `line` (1-based) of a file: its nearest local above the use in the enclosing
 * function, else a parameter of that function, else the file's one field so named; undefined when the file
 * declares none of them, or its declaration says no type the oracle reads.
 */
function declaredTypeOf(
  x: string,
  line: number,
  fileTags: readonly Tag[],
  lines: readonly string[],
  spec: ReceiverSpec,
): DeclaredType | undefined {
  const fn = enclosingFunction(fileTags, new Set(spec.functions), line);
  const read = (tag: Tag): DeclaredType | undefined => {
    if (spec.typeFrom === "typeref") return tag.typeref ? typeOfTyperef(tag.typeref) : undefined;
    const name = typeOnLine(lines[tag.line - 1] ?? "", x);
    return name ? { name, pointer: false } : undefined;
  };
  if (fn) {
    const locals = fileTags.filter(
      (t) => t.name === x && spec.locals.includes(t.kind) && t.line >= fn.line && t.line <= line,
    );
    const local = locals.sort((a, b) => b.line - a.line)[0];
    if (local) return read(local);
    if (spec.typeFrom === "line") {
      const type = fn.signature ? signatureTypes(fn.signature).get(x) : undefined;
      if (type) return { name: type, pointer: false };
    }
  }
  const fields = fileTags.filter((t) => t.name === x && spec.fields.includes(t.kind));
  const types = new Map<string, DeclaredType>();
  for (const field of fields) {
    const type = read(field);
    if (type) types.set(`${type.name}${type.pointer}`, type);
  }
  return types.size === 1 ? [...types.values()][0] : undefined;
}

/** `x.m` or `x->m`, x not itself a member of something else (only `this.` may come before it). */
const ACCESS = /(?<![\w$])((?:this\s*(?:\.|->)\s*)?)([A-Za-z_]\w*)\s*(\.|->)\s*([A-Za-z_]\w*)/g;

/**
 * Every member-access hole of a corpus in a language with a {@link ReceiverSpec}, sorted by file and position.
 * The cursor goes right after the `.` or `->`; X (the hole's name) is m; its declaration lines are m's tags in
 * x's type, those in the type's file first (the one the tabs scenario opens). A hole is dropped when the current
 * file declares the type itself, contains one of m's declaration lines, or when the operator does not fit the
 * type (C++: `->` on a pointer, `.` on a value).
 */
export function findMemberDeclHoles(
  language: Language,
  files: readonly string[],
  read: (file: string) => string | undefined,
  tags: readonly Tag[],
): Hole[] {
  const spec = LANGUAGES[language];
  const receivers = spec.receivers;
  if (!receivers) return [];
  const corpus = new Set(files);
  const index = indexMembers(
    tags.filter((t) => corpus.has(t.file)),
    receivers,
  );
  const view: CorpusView = {
    files,
    text: (file) => (corpus.has(file) ? blankNonCode(read(file) ?? "", spec.syntax, false) : read(file)),
  };
  const reach = new ReachIndex(language, view);
  const holes: Hole[] = [];
  for (const file of [...files].sort()) {
    const text = read(file);
    if (text === undefined) continue;
    const code = blankNonCode(text, spec.syntax);
    const lines = text.split("\n");
    const fileTags = index.byFile.get(file) ?? [];
    const ownTypes = new Set(fileTags.filter((t) => receivers.types.includes(t.kind)).map((t) => t.name));
    const lineStarts = lineStartsOf(text);
    for (const m of code.matchAll(ACCESS)) {
      const [, self, x, operator, member] = m as unknown as [string, string, string, string, string];
      if (!receivers.operators.includes(operator as "." | "->")) continue;
      const start = m.index + self.length;
      // Not a member of another value (`a.x.m`), nor a path (`ns::x.m`).
      const before = code.slice(Math.max(0, m.index - 2), m.index);
      if (/(?:\.|->|::)\s*$/.test(before) || /\.\s*$/.test(code.slice(Math.max(0, m.index - 1), m.index)))
        continue;
      const line = lineAt(lineStarts, start);
      const type = self
        ? fieldType(x, fileTags, lines, receivers)
        : declaredTypeOf(x, line + 1, fileTags, lines, receivers);
      if (!type || ownTypes.has(type.name)) continue;
      if (receivers.operators.includes("->") && (operator === "->") !== type.pointer) continue;
      const typeFile = index.typeFile.get(type.name);
      if (typeFile === undefined || typeFile === file) continue;
      const memberTags = index.members.get(type.name)?.get(member);
      if (!memberTags) continue;
      // A private member of another file's class is not what this file reaches (Java's, C#'s).
      if (spec.privateMembers && memberTags.every((t) => t.access === "private")) continue;
      const declarations = declarationLinesOf(memberTags, typeFile, read);
      if (declarations.length === 0 || declarations[0]!.file !== typeFile) continue;
      if (declarations.some((d) => text.includes(d.text))) continue;
      const cursor = m.index + m[0].length - member.length;
      const cursorLine = lineAt(lineStarts, cursor);
      const character = cursor - lineStarts[cursorLine]!;
      holes.push({
        id: `${file}:${cursorLine + 1}:${character + 1}`,
        file,
        line: cursorLine,
        character,
        offset: cursor,
        name: member,
        stratum: reach.reach(file, [typeFile]),
        pattern: operator === "->" ? "arrow" : "member",
        declarations,
        imports: reach.imports(file),
        crossPackage: false,
        // x's declared type is what jdtls, clangd or OmniSharp answers at x: the class's own tag.
        receiverType: {
          line,
          character: start - lineStarts[line]!,
          end: start - lineStarts[line]! + x.length,
          declarations: [{ file: typeFile, line: index.typeLine.get(type.name)! - 1 }],
        },
      });
    }
  }
  return holes;
}

/** The type of a field of the file reached as `this.x` / `this->x`. */
function fieldType(
  x: string,
  fileTags: readonly Tag[],
  lines: readonly string[],
  spec: ReceiverSpec,
): DeclaredType | undefined {
  return declaredTypeOf(x, 0, fileTags, lines, spec);
}

/** m's declaration lines: those in the type's file first, each once, trimmed. */
function declarationLinesOf(
  tags: readonly Tag[],
  typeFile: string,
  read: (file: string) => string | undefined,
): DeclarationLine[] {
  const sorted = [...tags].sort(
    (a, b) =>
      Number(b.file === typeFile) - Number(a.file === typeFile) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line),
  );
  const out: DeclarationLine[] = [];
  const seen = new Set<string>();
  const texts = new Map<string, string[]>();
  for (const tag of sorted) {
    const key = `${tag.file}:${tag.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let lines = texts.get(tag.file);
    if (!lines) {
      lines = (read(tag.file) ?? "").split("\n");
      texts.set(tag.file, lines);
    }
    const text = (lines[tag.line - 1] ?? "").trim();
    if (text !== "") out.push({ file: tag.file, line: tag.line - 1, text });
  }
  return out;
}
