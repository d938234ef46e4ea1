// The typing edge: the member outline of the type a receiver has (through import resolution, `declarationsOf`),
// and of the type declared at a file's line (what an editor's language server answers for a type definition).
import { declarationsOf } from "../declarations/find-declarations.js";
import { sourceOf } from "../scan/snippet.js";
import type { Declaration, LanguageSupport, ModuleHost, ParsedModule, ResolveEnv } from "../types.js";
import type { Receiver, ValueExpr } from "./expression.js";
import { TypeInference } from "./infer.js";
import { declarationOutline, memberOutlines, type OutlineType, type TypeOutline } from "./outline.js";
import type { TypingRules } from "./rules.js";
import { ScopeText } from "./scope-text.js";
import { type Site, TYPE_KINDS, type TypeWorld } from "./type-sites.js";

/** What the edge reads through: the choice's module host and the project environment of each file. */
export interface TypingSources {
  readonly support: LanguageSupport;
  readonly rules: TypingRules;
  /** The open buffers over the files on disk, within the context's file rules. */
  readonly host: ModuleHost;
  /** The project environment of a file (absolute path). */
  env(path: string): Promise<ResolveEnv>;
  /** The current document's parse (its own declarations), which wins over its file on disk. */
  readonly current?: ParsedModule;
}

/** What an outline may take and how it ranks. */
export interface OutlineRequest {
  /** Most characters of the outlines' text together. */
  readonly maxChars: number;
  /** The member name typed after the operator. */
  readonly prefix?: string;
  /** Names used near the cursor: members so named rank first after the prefix's. */
  readonly near?: ReadonlySet<string>;
  /** Names used as members anywhere in the current file: members so named rank next. */
  readonly used?: ReadonlySet<string>;
  /** A file whose own types get no outline (the prompt holds it): only their bases from other files do. */
  readonly except?: string;
  /** The receiver is `this`/`self` or one of its fields: members private to their type are shown too. */
  readonly private?: boolean;
}

/** Bases outlined at most, over every level. */
const MAX_BASES = 4;
/** Levels of bases followed for the outline. */
const BASE_LEVELS = 2;

/** The world of one inference: lookups through `declarationsOf`, each file's environment read once. */
function worldOf(sources: TypingSources): TypeWorld {
  const envs = new Map<string, Promise<ResolveEnv>>();
  const modules = new Map<string, Promise<ParsedModule | undefined>>();
  const moduleAt = (path: string): Promise<ParsedModule | undefined> => {
    if (sources.current?.path === path) return Promise.resolve(sources.current);
    let found = modules.get(path);
    if (!found) {
      found = Promise.resolve(sources.host.module(path)).catch(() => undefined);
      modules.set(path, found);
    }
    return found;
  };
  return {
    async lookup(written, file) {
      const module = await moduleAt(file);
      if (!module) return [];
      let env = envs.get(file);
      if (!env) {
        env = sources.env(file);
        envs.set(file, env);
      }
      const found = await declarationsOf(sources.support, module, written, sources.host, await env, {
        maxFiles: 8,
      });
      return found ? found.declarations.map((declaration) => ({ path: found.path, declaration })) : [];
    },
    lines: (site) => sourceOf(site.declaration),
  };
}

/**
 * The member outline of the type the cursor's receiver has: the receiver's type found from what the code above
 * it (`text`, the cursor's line last) declares, then its members and its bases' (see {@link memberOutlines}).
 * Empty when the declarations do not tell the type, or it has no members.
 *
 * @param file - the current file (absolute): the file whose names `text` uses
 */
export async function receiverOutlines(
  sources: TypingSources,
  receiver: Receiver,
  file: string,
  text: string,
  request: OutlineRequest,
): Promise<TypeOutline[]> {
  const inference = new TypeInference(sources.rules, worldOf(sources));
  const scope = new ScopeText(text, sources.rules.expressions.dialect);
  const found = await inference.typeOf(receiver.receiver, { file, scope });
  if (!found) return [];
  const own = rootOf(receiver.receiver).kind === "self";
  // The member whose signature spells the value's type out goes first.
  const near = found.focus === undefined ? request.near : new Set([found.focus, ...(request.near ?? [])]);
  return outlineOf(sources.rules, inference, found.site, {
    ...request,
    ...(near ? { near } : {}),
    private: own,
    except: file,
  });
}

/**
 * The member outline of the type declared at a line of a file (0-based; its name's line, or any line of it): the
 * entry point for the type definitions an editor's language server returns ("the type declared at F, line L").
 * Empty when no type is declared there, or the file may not be read.
 *
 * @param path - absolute path of the declaring file
 */
export async function outlineAt(
  sources: TypingSources,
  path: string,
  line: number,
  request: OutlineRequest,
): Promise<TypeOutline[]> {
  let module: ParsedModule | undefined;
  try {
    module = await sources.host.module(path);
  } catch {
    module = undefined;
  }
  const declaration = module && typeAt(module.outline.declarations, line);
  if (!declaration) return [];
  const inference = new TypeInference(sources.rules, worldOf(sources));
  return outlineOf(sources.rules, inference, { path, declaration }, request);
}

/** The value a member chain starts from: `this` in `this.a.b`, `x` in `x.f().g`. */
function rootOf(expr: ValueExpr): ValueExpr {
  switch (expr.kind) {
    case "member":
    case "await":
    case "try":
      return rootOf(expr.of);
    case "call":
      return rootOf(expr.callee);
    default:
      return expr;
  }
}

/**
 * Whether members private to a type declared in `path` are visible where the cursor is: its own (`this`), Rust's
 * (a trait impl's methods have no `pub`: the outline ranks them last rather than leaving them out), Go's package.
 */
function privateVisible(rules: TypingRules, path: string, request: OutlineRequest): boolean {
  if (request.private || rules.family === "rust") return true;
  const dir = (p: string) => p.slice(0, p.lastIndexOf("/"));
  return rules.family === "go" && request.except !== undefined && dir(request.except) === dir(path);
}

/** The innermost type declaration whose lines hold `line` (its name's line first). */
function typeAt(declarations: readonly Declaration[], line: number): Declaration | undefined {
  let found: Declaration | undefined;
  for (const d of declarations) {
    if (d.startLine > line || line > d.endLine) continue;
    const inner = d.members && typeAt(d.members, line);
    if (inner) return inner;
    if (TYPE_KINDS.has(d.kind) && (!found || d.nameLine === line)) found = d;
  }
  return found;
}

/** The outlines of a type and its bases (two levels, four bases at most), within the request's budget. */
async function outlineOf(
  rules: TypingRules,
  inference: TypeInference,
  site: Site,
  request: OutlineRequest,
): Promise<TypeOutline[]> {
  const chain: Site[] = [site];
  let level = [site];
  for (let depth = 0; depth < BASE_LEVELS && chain.length <= MAX_BASES; depth++) {
    const next: Site[] = [];
    for (const type of level)
      for (const base of await inference.bases(type))
        if (!chain.some((s) => s.declaration === base.declaration) && chain.length <= MAX_BASES) {
          chain.push(base);
          next.push(base);
        }
    level = next;
  }
  const types: OutlineType[] = [];
  for (const type of chain) {
    const lines = sourceOf(type.declaration);
    if (!lines || type.path === request.except) continue;
    const visible = privateVisible(rules, type.path, request);
    types.push({ path: type.path, declaration: type.declaration, lines, private: visible });
  }
  // A type with no members to list (a union of object types): its declaration's own lines.
  if (types.length === 1 && types[0]!.declaration === site.declaration && !site.declaration.members?.length) {
    const whole = declarationOutline(types[0]!, request.maxChars);
    return whole ? [whole] : [];
  }
  return memberOutlines(types, {
    syntax: rules.outline,
    maxChars: request.maxChars,
    hidden: (name, signature) => rules.hidden(name, signature),
    ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
    ...(request.near ? { near: request.near } : {}),
    ...(request.used ? { used: request.used } : {}),
  });
}
