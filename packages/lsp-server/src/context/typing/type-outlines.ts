// The typing edge: the member outline of the type a receiver has (through import resolution, `declarationsOf`),
// and of the type declared at a file's line (what an editor's language server answers for a type definition).
import { declarationsOf } from "../declarations/find-declarations.js";
import { sourceOf } from "../scan/snippet.js";
import type { Declaration, LanguageSupport, ModuleHost, ParsedModule, ResolveEnv } from "../types.js";
import type { Receiver } from "./expression.js";
import { type Site, TYPE_KINDS, TypeInference, type TypeWorld } from "./infer.js";
import { memberOutlines, type OutlineType, type TypeOutline } from "./outline.js";
import type { TypingRules } from "./rules.js";
import { ScopeText } from "./scope-text.js";

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
  /** A file whose own types get no outline (the prompt holds it): only their bases from other files do. */
  readonly except?: string;
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
  const site = await inference.typeOf(receiver.receiver, { file, scope });
  return site ? outlineOf(sources.rules, inference, site, request) : [];
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
    types.push({ path: type.path, declaration: type.declaration, lines });
  }
  return memberOutlines(types, {
    syntax: rules.outline,
    maxChars: request.maxChars,
    hidden: (name) => rules.hidden(name),
    ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
    ...(request.near ? { near: request.near } : {}),
  });
}
