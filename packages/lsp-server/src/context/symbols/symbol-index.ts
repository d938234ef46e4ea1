// The workspace symbol index's store: declarations by name, from the outlines of the workspace's files, and their
// ranking by nearness to the file that asks. Pure (no I/O); `workspace-symbols.ts` fills it.
import { posix as path } from "node:path";
import type { Declaration, DeclarationKind, Family, ModuleOutline } from "../types.js";

/**
 * Families whose names one file may use from another's without a way to tell the language: C with C++, and
 * Java, Kotlin and Scala. A lookup is restricted to the asking file's group.
 */
export function indexGroup(family: Family): string {
  if (family === "cpp") return "c";
  if (family === "kotlin" || family === "scala") return "java";
  return family;
}

/** Bounds of the index (constants of `workspace-symbols.ts`). */
export interface SymbolIndexLimits {
  /** Files indexed at most. */
  readonly maxFiles: number;
  /** Declarations kept at most, over all files. */
  readonly maxEntries: number;
  /** Declarations kept at most per file (a generated file of thousands says little per name). */
  readonly maxPerFile: number;
}

/** A file of the index. */
interface FileRecord {
  readonly path: string;
  readonly dir: string;
  readonly group: string;
  readonly package: string | undefined;
  /** The names it declares at the top level (to remove its entries). */
  readonly names: readonly string[];
  /** The names of its top-level declarations' members. */
  readonly memberNames: readonly string[];
}

/** One declaration: its file and where its name is. */
interface Entry {
  readonly file: FileRecord;
  readonly nameLine: number;
  readonly kind: DeclarationKind;
  readonly exported: boolean;
  /** A member's container (its name), undefined at the top level. */
  readonly owner?: string;
  /** The declaration's bases (`Declaration.bases`): where its members may be inherited from. */
  readonly bases?: readonly string[];
}

/** The bases of a declaration as the index keeps them (their last name segments, own strings), or undefined. */
function basesOf(d: Declaration): readonly string[] | undefined {
  return d.bases && d.bases.length > 0 ? d.bases.map((b) => own(lastName(b))) : undefined;
}

/** The last segment of a path written with `::`, `.` or `\`. */
function lastName(path: string): string {
  const parts = path.split(/::|\.|\\/);
  return parts[parts.length - 1] ?? path;
}

/** How many levels of bases a member lookup climbs (a class, its superclass's mixin, …). */
const MAX_BASE_DEPTH = 3;

/** What a lookup knows of the asking file and the session, to rank by nearness. */
export interface Nearness {
  /** Absolute path of the asking file (never a result). */
  readonly path: string;
  readonly family: Family;
  /** Its package or namespace (`ModuleOutline.package`). */
  readonly package?: string;
  /** Paths of the open documents. */
  readonly open?: ReadonlySet<string>;
  /** Paths of recently edited files, most recent first. */
  readonly recent?: readonly string[];
}

/** A declaration found by name. */
export interface SymbolHit {
  readonly path: string;
  readonly name: string;
  readonly nameLine: number;
  readonly kind: DeclarationKind;
  readonly exported: boolean;
  /** A member's container (its name), undefined for a top-level declaration. */
  readonly owner?: string;
}

/** Nearness tiers, best first. */
const SAME_FOLDER = 0;
const SAME_PACKAGE = 1;
const OPEN = 2;
const RECENT = 3;
const ELSEWHERE = 4;

/**
 * A name as a string of its own: a parser's names are slices of the file's text, and V8 keeps the whole text alive
 * for a slice (of 13 characters or more) that outlives it; the index outlives every file's text.
 */
function own(name: string): string {
  return name.length < 13 ? name : (JSON.parse(JSON.stringify(name)) as string);
}

/** Folders between two folders: up from one to their common ancestor, then down to the other. */
function folderDistance(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  let common = 0;
  while (common < x.length && common < y.length && x[common] === y[common]) common++;
  return x.length - common + (y.length - common);
}

/** A name's one entry, or its entries when several files declare it (most names have one: no array). */
type Entries = Map<string, Entry | Entry[]>;

function addEntry(map: Entries, name: string, entry: Entry): void {
  const known = map.get(name);
  if (known === undefined) map.set(name, entry);
  else if (Array.isArray(known)) known.push(entry);
  else map.set(name, [known, entry]);
}

/** Drops a file's entries of the names given; returns how many went. */
function removeEntries(map: Entries, names: readonly string[], record: FileRecord): number {
  let removed = 0;
  for (const name of new Set(names)) {
    const known = map.get(name);
    if (known === undefined) continue;
    const list = Array.isArray(known) ? known : [known];
    const kept = list.filter((e) => e.file !== record);
    removed += list.length - kept.length;
    if (kept.length === 0) map.delete(name);
    else map.set(name, kept.length === 1 ? kept[0]! : kept);
  }
  return removed;
}

/**
 * Declarations by name over the workspace's files, bounded in files and entries: once full, a new file is not
 * indexed (a changed one still is, in place of its old entries). The members of top-level declarations (methods,
 * fields, enum members) are indexed too, apart, with their container's name: a Ruby class reopened in many files,
 * a C# partial class, an inherited method called by its bare name are found by the member.
 */
export class SymbolIndex {
  readonly #files = new Map<string, FileRecord>();
  /** Top-level declarations by name. */
  readonly #byName: Entries = new Map();
  /** Members of top-level declarations by name. */
  readonly #members: Entries = new Map();
  #entries = 0;

  constructor(readonly limits: SymbolIndexLimits) {}

  /** Files indexed. */
  get files(): number {
    return this.#files.size;
  }

  /** Declarations indexed. */
  get entries(): number {
    return this.#entries;
  }

  /** Whether a file is indexed. */
  has(file: string): boolean {
    return this.#files.has(file);
  }

  /**
   * Index a file's top-level declarations and their members (replacing what it had): the top-level ones first,
   * then members while the bounds leave room. False when the index is full and the file was not in it.
   */
  set(file: string, family: Family, outline: ModuleOutline): boolean {
    const known = this.#files.has(file);
    if (!known && this.#files.size >= this.limits.maxFiles) return false;
    this.remove(file);
    let room = Math.max(0, Math.min(this.limits.maxPerFile, this.limits.maxEntries - this.#entries));
    const declarations = outline.declarations.slice(0, room);
    room -= declarations.length;
    const record: FileRecord = {
      path: file,
      dir: path.dirname(file),
      group: indexGroup(family),
      package: outline.package,
      names: [],
      memberNames: [],
    };
    this.#files.set(file, record);
    const names = record.names as string[];
    const memberNames = record.memberNames as string[];
    for (const d of declarations) {
      const name = own(d.name);
      names.push(name);
      const bases = basesOf(d);
      const entry: Entry = { file: record, nameLine: d.nameLine, kind: d.kind, exported: d.exported };
      addEntry(this.#byName, name, bases ? { ...entry, bases } : entry);
    }
    declarations.forEach((d, i) => {
      for (const m of d.members ?? []) {
        if (room <= 0) return;
        room--;
        const name = own(m.name);
        memberNames.push(name);
        const bases = basesOf(m);
        const entry: Entry = {
          file: record,
          nameLine: m.nameLine,
          kind: m.kind,
          exported: m.exported,
          owner: names[i]!,
          ...(bases ? { bases } : {}),
        };
        addEntry(this.#members, name, entry);
      }
    });
    this.#entries += names.length + memberNames.length;
    return true;
  }

  /** Forget a file (deleted, now ignored). */
  remove(file: string): void {
    const record = this.#files.get(file);
    if (!record) return;
    this.#files.delete(file);
    this.#entries -= removeEntries(this.#byName, record.names, record);
    this.#entries -= removeEntries(this.#members, record.memberNames, record);
  }

  /** Forget everything (workspace folders or exclusions changed). */
  clear(): void {
    this.#files.clear();
    this.#byName.clear();
    this.#members.clear();
    this.#entries = 0;
  }

  /**
   * The declarations of a name in the asking file's family group, nearest first: the same folder, the same
   * package or namespace, an open document, a recently edited file, then by folder distance; exported ones first
   * within a tier, then by path (a stable order: the same question gets the same answer). At most `max`.
   */
  lookup(name: string, near: Nearness, max: number): SymbolHit[] {
    return this.#ranked(this.#byName.get(name), name, near, max);
  }

  /**
   * The members named `name` of top-level declarations, ranked as {@link lookup} ranks; at most `max`. With an
   * `owner`, those of a container so named (in any file: a class reopened, a partial class), else of its bases
   * (`Declaration.bases` of every declaration so named: superclasses, mixins, an assigned instance's class), then
   * of theirs, up to three levels.
   */
  lookupMember(name: string, near: Nearness, max: number, owner?: string): SymbolHit[] {
    const known = this.#members.get(name);
    if (known === undefined) return [];
    const list = Array.isArray(known) ? known : [known];
    if (owner === undefined) return this.#ranked(list, name, near, max);
    const group = indexGroup(near.family);
    let owners = new Set([owner]);
    const seen = new Set(owners);
    for (let depth = 0; depth <= MAX_BASE_DEPTH && owners.size > 0; depth++) {
      const mine = list.filter((e) => e.owner !== undefined && owners.has(e.owner));
      const hits = this.#ranked(mine, name, near, max);
      if (hits.length > 0) return hits;
      const next = new Set<string>();
      for (const o of owners) {
        for (const map of [this.#byName, this.#members]) {
          const entries = map.get(o);
          if (entries === undefined) continue;
          for (const e of Array.isArray(entries) ? entries : [entries]) {
            if (e.file.group !== group) continue;
            for (const base of e.bases ?? []) {
              if (seen.has(base)) continue;
              seen.add(base);
              next.add(base);
            }
          }
        }
      }
      owners = next;
    }
    return [];
  }

  #ranked(known: Entry | Entry[] | undefined, name: string, near: Nearness, max: number): SymbolHit[] {
    if (known === undefined) return [];
    const list = Array.isArray(known) ? known : [known];
    const group = indexGroup(near.family);
    const dir = path.dirname(near.path);
    const ranked: Array<{ entry: Entry; tier: number; distance: number }> = [];
    for (const entry of list) {
      const { file } = entry;
      if (file.group !== group || file.path === near.path) continue;
      let tier = ELSEWHERE;
      if (file.dir === dir) tier = SAME_FOLDER;
      else if (near.package !== undefined && file.package === near.package) tier = SAME_PACKAGE;
      else if (near.open?.has(file.path)) tier = OPEN;
      else if (near.recent?.includes(file.path)) tier = RECENT;
      ranked.push({ entry, tier, distance: folderDistance(dir, file.dir) });
    }
    ranked.sort(
      (a, b) =>
        a.tier - b.tier ||
        a.distance - b.distance ||
        Number(b.entry.exported) - Number(a.entry.exported) ||
        (a.entry.file.path < b.entry.file.path ? -1 : a.entry.file.path > b.entry.file.path ? 1 : 0) ||
        a.entry.nameLine - b.entry.nameLine,
    );
    return ranked.slice(0, max).map(({ entry }) => ({
      path: entry.file.path,
      name,
      nameLine: entry.nameLine,
      kind: entry.kind,
      exported: entry.exported,
      ...(entry.owner !== undefined ? { owner: entry.owner } : {}),
    }));
  }
}
