// The member-access oracle for Python, Go and Rust (issue 24), from the declarations Universal Ctags reads: `x.m`
// where m is a member (method or field) that exactly one type of the corpus declares, so that whatever x holds, m
// is that type's. Shares no code with the server's typing rules. Pure.
import type { Tag } from "./ctags.js";
import type { DeclarationLine, Hole, Receiver, ReceiverType } from "./hole.js";
import { LANGUAGES, type Language } from "./languages.js";
import { type CorpusView, ReachIndex } from "./reach.js";
import { blankNonCode } from "./source-lexer.js";
import { lineAt, lineStartsOf, TOO_COMMON, trimmedLines } from "./tag-holes.js";

/** Languages this oracle reads, and which of their tags are a type's members and a type's declaration. */
const MEMBERS: Partial<Record<Language, { members: (t: Tag) => boolean; types: ReadonlySet<string> }>> = {
  Go: {
    members: (t) =>
      (t.kind === "func" && (t.scopeKind === "struct" || t.scopeKind === "interface")) ||
      t.kind === "methodSpec" ||
      t.kind === "member",
    types: new Set(["struct", "interface", "type"]),
  },
  Rust: {
    members: (t) => (t.kind === "method" || t.kind === "field") && t.scope !== undefined,
    types: new Set(["struct", "enum", "interface", "typedef"]),
  },
  Python: {
    members: (t) => (t.kind === "member" || t.kind === "variable") && t.scopeKind === "class",
    types: new Set(["class"]),
  },
};

/**
 * Members of the language's own types (Python's `str`, `list`, `dict`, files, locks; Go's `testing.T`,
 * `bytes.Buffer`, `strings.Builder`, `sync` types, `error`; Rust's `String`, `Vec`, `Option`, `Result`, slices and
 * iterators): `x.m` with such an m is as likely the library's as the corpus's, and the oracle, which knows m and not
 * x, leaves it out.
 */
const LIBRARY_MEMBERS: Partial<Record<Language, ReadonlySet<string>>> = {
  Python: new Set(
    (
      "capitalize casefold center count encode endswith expandtabs find format format_map index isalnum isalpha " +
      "isascii isdecimal isdigit isidentifier islower isnumeric isprintable isspace istitle isupper join ljust " +
      "lower lstrip partition removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split " +
      "splitlines startswith strip swapcase title translate upper zfill decode append extend insert remove pop " +
      "clear copy reverse sort keys values items get setdefault update popitem add discard difference " +
      "intersection union issubset issuperset write read readline readlines flush close seek tell acquire release " +
      "wait notify is_set group groups span start end match search sub findall finditer fullmatch"
    ).split(" "),
  ),
  Go: new Set(
    (
      "Errorf Fatalf Logf Log Error Fatal Helper Run Skip Skipf Cleanup Parallel TempDir Setenv Name Failed FailNow " +
      "Bytes String Len Write WriteString WriteByte WriteRune Reset Grow Cap Truncate ReadFrom WriteTo Next " +
      "ReadByte ReadRune UnreadByte Lock Unlock RLock RUnlock Add Done Wait Do Load Store Err Value Deadline Read " +
      "Close Header Sub Before After Unix Format Seek Sum"
    ).split(" "),
  ),
  Rust: new Set(
    (
      "len is_empty push pop insert remove get get_mut iter iter_mut into_iter and_then unwrap_or ok_or as_str " +
      "as_ref as_mut to_string to_owned contains starts_with ends_with trim chars bytes lines parse extend retain " +
      "sort drain entry or_insert push_str is_some is_none is_ok is_err ok err map_err take replace as_slice " +
      "with_capacity capacity truncate split_at windows chunks fmt write_str write_fmt hash eq cmp partial_cmp"
    ).split(" "),
  ),
};

/** Names shorter than this are too common to make a hole. */
const MIN_NAME = 3;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;

/** Whether the member oracle reads a language. */
export function hasMemberOracle(language: Language): boolean {
  return MEMBERS[language] !== undefined;
}

/**
 * Every member-access hole of a corpus, sorted by file and position.
 *
 * A hole is `x.m` in file F, outside comments and literals, where: m is a member (a method, a field, an interface
 * method) that ctags finds declared by one type only in the whole corpus (every member tag named m has the same
 * scope, and no other tag is named m); that type is declared in another file than F (its struct, class, enum or
 * trait tag), and so is m; x is a name starting lower case (a local, a parameter, a receiver, a field: Go's and
 * Python's imported package and module names, `self.` chains aside, are no receivers), `self`, or the last name of
 * a chain (`self.f.m`); m is not too common (the import oracle's list, and at least 3 characters); and F's text
 * contains none of m's declaration lines; and m is not also a member of the language's own types (`str.replace`,
 * `testing.T.Errorf`, `Vec::len`). The cursor goes right after the `.`.
 *
 * The oracle knows m's type from m alone, not from x: where x holds a value of a library type that also has an m,
 * the hole is one no declaration of the corpus answers (the report says so).
 */
export function findMemberTagHoles(
  language: Language,
  files: readonly string[],
  read: (file: string) => string | undefined,
  tags: readonly Tag[],
): Hole[] {
  const rules = MEMBERS[language];
  if (!rules) return [];
  const spec = LANGUAGES[language];
  const corpus = new Set(files);
  const inCorpus = tags.filter((t) => corpus.has(t.file));
  const owners = memberOwners(inCorpus, rules.members);
  const typeFiles = new Map<string, Set<string>>();
  /** A type's first tag line (1-based) in each file declaring it. */
  const typeLines = new Map<string, number>();
  for (const t of inCorpus) {
    if (!rules.types.has(t.kind)) continue;
    const key = typeKey(language, t.name, t.scope);
    const set = typeFiles.get(key) ?? new Set<string>();
    set.add(t.file);
    typeFiles.set(key, set);
    const at = `${key}\0${t.file}`;
    typeLines.set(at, Math.min(typeLines.get(at) ?? t.line, t.line));
  }
  const view: CorpusView = { files, text: (file) => blankNonCode(read(file) ?? "", spec.syntax, false) };
  const reach = new ReachIndex(language, view);
  const lineOf = trimmedLines(read);
  const holes: Hole[] = [];
  for (const file of [...files].sort()) {
    const text = read(file);
    if (text === undefined) continue;
    const code = blankNonCode(text, spec.syntax);
    // Import paths are strings: read them with the literals kept.
    const imported = importedNames(language, blankNonCode(text, spec.syntax, false));
    const starts = lineStartsOf(text);
    for (const use of accesses(code)) {
      const owner = owners.get(use.member);
      if (!owner || use.member.length < MIN_NAME || TOO_COMMON.has(use.member)) continue;
      if (LIBRARY_MEMBERS[language]?.has(use.member)) continue;
      if (!validReceiver(use, language, imported)) continue;
      const ownerKey = typeKey(language, owner.type, owner.scope);
      const declaredIn = typeFiles.get(ownerKey);
      if (declaredIn?.size !== 1 || declaredIn.has(file)) continue;
      if (owner.tags.some((t) => t.file === file)) continue;
      const declarations: DeclarationLine[] = owner.tags
        .map((t) => ({ file: t.file, line: t.line - 1, text: lineOf(t.file, t.line) }))
        .filter((d) => d.text !== "");
      if (declarations.length === 0 || declarations.some((d) => text.includes(d.text))) continue;
      const line = lineAt(starts, use.cursor);
      const character = use.cursor - starts[line]!;
      holes.push({
        id: `${file}:${line + 1}:${character + 1}`,
        file,
        line,
        character,
        offset: use.cursor,
        name: use.member,
        stratum: use.receiver,
        pattern: "access",
        declarations,
        imports: reach.imports(file),
        crossPackage: false,
        receiverType: receiverTypeOf(
          use,
          starts,
          [...declaredIn][0]!,
          typeLines.get(`${ownerKey}\0${[...declaredIn][0]}`),
        ),
      });
    }
  }
  return holes;
}

/**
 * What pyright, gopls or rust-analyzer answers at x, as far as this oracle knows: m's one owning type (x's type
 * when x's type declares m, not when a base or an embedded struct does; the oracle cannot tell). At `self` the
 * answer would be the enclosing class, in the current file, which the server leaves out: none here.
 */
function receiverTypeOf(
  use: Access,
  starts: readonly number[],
  typeFile: string,
  typeLine: number | undefined,
): ReceiverType {
  const line = lineAt(starts, use.start);
  return {
    line,
    character: use.start - starts[line]!,
    end: use.start - starts[line]! + use.name.length,
    declarations:
      use.receiver === "self" || typeLine === undefined ? [] : [{ file: typeFile, line: typeLine - 1 }],
  };
}

/** A member name's one owning type (its scope as ctags writes it, and the type's name), and its tags. */
interface Owner {
  readonly scope: string;
  readonly type: string;
  readonly tags: readonly Tag[];
}

/** The members whose name one type only declares, and that no other tag of the corpus names. */
function memberOwners(tags: readonly Tag[], isMember: (t: Tag) => boolean): Map<string, Owner> {
  const byName = new Map<string, Tag[]>();
  for (const t of tags) {
    const list = byName.get(t.name) ?? [];
    list.push(t);
    byName.set(t.name, list);
  }
  const owners = new Map<string, Owner>();
  for (const [name, list] of byName) {
    if (!list.every(isMember)) continue;
    const scopes = new Set(list.map((t) => t.scope));
    if (scopes.size !== 1) continue;
    const scope = list[0]!.scope!;
    // `pkg.Type` (Go), `Type` (Rust), `Outer.Inner` (Python): the type's own name is the last part.
    owners.set(name, { scope, type: scope.split(".").at(-1)!, tags: list.sort((a, b) => a.line - b.line) });
  }
  return owners;
}

/** A type's identity across tags: Go's package-qualified name, else its name. */
function typeKey(language: Language, name: string, scope: string | undefined): string {
  if (language === "Go")
    return scope === undefined || scope.split(".").length === 1 ? `${scope ?? ""}.${name}` : scope;
  return name;
}

/** A member access `x.m` in blanked code: the member, the cursor right after the `.`, and what x is. */
interface Access {
  readonly member: string;
  readonly cursor: number;
  readonly receiver: Receiver;
  /** x's name (`self`, or the last name of a chain). */
  readonly name: string;
  /** x follows a `.` itself. */
  readonly chained: boolean;
  /** Where x starts. */
  readonly start: number;
}

function* accesses(code: string): Generator<Access> {
  for (let dot = code.indexOf("."); dot !== -1; dot = code.indexOf(".", dot + 1)) {
    if (code[dot + 1] === "." || code[dot - 1] === ".") continue;
    IDENTIFIER.lastIndex = dot + 1;
    const member = IDENTIFIER.exec(code)?.[0];
    if (!member) continue;
    let end = dot;
    while (end > 0 && code[end - 1] === " ") end--;
    let start = end;
    while (start > 0 && /[A-Za-z0-9_]/.test(code[start - 1]!)) start--;
    const name = code.slice(start, end);
    if (!/^[A-Za-z_]/.test(name)) continue;
    const chained = code[start - 1] === ".";
    const receiver: Receiver = name === "self" ? "self" : chained ? "field" : "name";
    yield { member, cursor: dot + 1, receiver, name, chained, start };
  }
}

/** Whether x is a value: a lower-case name that no import binds (a package, a module), `self`, a chain's field. */
function validReceiver(use: Access, language: Language, imported: ReadonlySet<string>): boolean {
  if (use.receiver === "self") return language !== "Go";
  if (!/^[a-z_]/.test(use.name) || KEYWORDS.has(use.name)) return false;
  return use.chained || !imported.has(use.name);
}

const KEYWORDS = new Set([
  "return",
  "if",
  "else",
  "for",
  "in",
  "not",
  "and",
  "or",
  "range",
  "go",
  "defer",
  "match",
]);

/** The names a file's imports bind: Go's package names, Python's modules and imported names. */
function importedNames(language: Language, code: string): Set<string> {
  const names = new Set<string>();
  if (language === "Go") {
    for (const block of code.matchAll(/\bimport\s*(?:\(([\s\S]*?)\)|([^\n]*))/g)) {
      for (const spec of (block[1] ?? block[2] ?? "").split("\n")) {
        const m = /^\s*([A-Za-z_.][\w.]*\s+)?"([^"]*)"/.exec(spec);
        if (!m) continue;
        const alias = m[1]?.trim();
        const last =
          m[2]!
            .split("/")
            .filter((p) => !/^v\d+$/.test(p))
            .at(-1) ?? "";
        names.add(alias ?? last.replace(/^go-/, "").replace(/[.-].*$/, ""));
      }
    }
    return names;
  }
  if (language === "Python") {
    for (const m of code.matchAll(/^\s*import\s+([^\n]+)/gm))
      for (const part of m[1]!.split(","))
        names.add(
          part
            .trim()
            .split(/\s+as\s+/)
            .at(-1)!
            .split(".")[0]!,
        );
    for (const m of code.matchAll(/^\s*from\s+\S+\s+import\s+(\([^)]*\)|[^\n]+)/gm))
      for (const part of m[1]!.replace(/[()]/g, "").split(","))
        names.add(
          part
            .trim()
            .split(/\s+as\s+/)
            .at(-1)!,
        );
  }
  return names;
}
