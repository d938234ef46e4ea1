// One corpus: its cases replayed through a built server per format, the excluded files and the malformed answers.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Sim, startSim } from "@infill/sim";
import type { Corpus } from "../corpus.js";
import { languageIdOf } from "../languages.js";
import { type EditorSession, launch } from "../lsp-client.js";
import { afterFirst, type EditCase } from "./edit-case.js";
import { type CaseCaps, findCases } from "./find-cases.js";
import { SPOILERS, spoilingProxy } from "./malformed.js";
import type { FormatName } from "./prompt-reading.js";
import { type CaseRun, EDIT_PATHS, positionOf, replayCase } from "./replay.js";
import type { SourceText } from "./source-text.js";

/** How to evaluate a corpus. */
export interface EditEvalOptions {
  /** Path of the built `infill-lsp.js`. */
  readonly bin: string;
  readonly caps: CaseCaps;
  /** The formats to ask in; the first one also gets the excluded files and the malformed answers. */
  readonly formats: readonly FormatName[];
  /** Progress lines (not figures). */
  readonly progress?: (line: string) => void;
}

/** The cases of one format. */
export interface FormatResult {
  readonly format: FormatName;
  readonly runs: readonly CaseRun[];
  /** The server's error log lines and whether its process ended before `shutdown`. */
  readonly errors: readonly string[];
  readonly crashed: boolean;
}

/** Excluded files: a git-ignored copy of a case's file and a `.env`, edited and asked about. */
export interface ExcludedResult {
  readonly cases: number;
  /** Edits shown for them. */
  readonly edits: number;
  /** Upstream requests while they were edited and asked about. */
  readonly requests: number;
  /** Later requests whose prompt holds their text or paths. */
  readonly leaks: number;
}

/** Malformed answers: each spoiler on a case of its own. */
export interface MalformedResult {
  readonly cases: number;
  /** Edits shown from a spoilt answer. */
  readonly shown: number;
  /** The server's error log lines and exits while they were answered. */
  readonly crashes: number;
}

/** Everything measured on one corpus. */
export interface CorpusEditResult {
  readonly corpus: Corpus;
  readonly found: Readonly<Record<string, number>>;
  readonly cases: readonly EditCase[];
  readonly formats: readonly FormatResult[];
  readonly excluded: ExcludedResult;
  readonly malformed: MalformedResult;
  readonly seconds: number;
}

/** A sim of the dialect each format is served by, and the `nextEdit` settings that point the server at it. */
async function backend(format: FormatName, sim?: { url: string }) {
  const dialect = (
    { deepseek: "deepseek", zeta: "openai-compatible", sweep: "llamacpp", instinct: "ollama" } as const
  )[format];
  const started = sim ? undefined : await startSim({ dialect });
  const url = sim?.url ?? started!.url;
  const settings: Record<FormatName, Record<string, unknown>> = {
    deepseek: {},
    zeta: { provider: "openai-compatible", format: "zeta", model: "zeta", baseUrl: url },
    sweep: { provider: "llamacpp", format: "sweep", baseUrl: url },
    instinct: { provider: "ollama", format: "instinct", model: "nate/instinct", baseUrl: url },
  };
  return { sim: started, url, nextEdit: settings[format] };
}

/** A server on the corpus, asking next edits at `url` with `nextEdit` settings. */
function editor(corpus: Corpus, bin: string, url: string, nextEdit: Record<string, unknown>) {
  return launch({
    bin,
    baseUrl: url,
    root: corpus.root,
    languageId: (file) => (file.endsWith(".env") ? "dotenv" : languageIdOf(corpus.language, file)),
    initializationOptions: {
      debounceMs: 0,
      context: { enabled: false },
      usage: { persist: false },
      // A pause shorter than a case's wait, longer than the gap between the keystrokes the eval sends back to back.
      nextEdit: { enabled: true, debounceMs: 50, ...nextEdit },
    },
  });
}

const IGNORED_DIR = "eval-ignored";
const ENV_TEXT =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a .env's own interpolation, not a template
  "DATABASE_URL=postgres://db.internal/app\nREPLICA_URL=${DATABASE_URL}\nBACKUP_URL=${DATABASE_URL}\n";
const LEAKS = [IGNORED_DIR, "DATABASE_URL", "PRIMARY_URL", "db.internal"];

/**
 * Find and sample the corpus's cases, and replay them: per format, one server and its sim; with the first format,
 * first the excluded files (nothing shown, nothing asked, nothing of them in a later prompt), then, on a server of
 * their own behind a spoiling proxy, the malformed answers.
 */
export async function evaluateEdits(corpus: Corpus, options: EditEvalOptions): Promise<CorpusEditResult> {
  const started = performance.now();
  const { found, cases, sources } = findCases(corpus, options.caps);
  options.progress?.(`${corpus.name}: ${cases.length} cases`);
  const excludedCase = cases.find((c) => c.kind === "rename") ?? cases[0];
  const ignoredCopy = excludedCase && `${IGNORED_DIR}/${path.posix.basename(excludedCase.file)}`;
  if (ignoredCopy) {
    mkdirSync(path.join(corpus.root, IGNORED_DIR), { recursive: true });
    writeFileSync(path.join(corpus.root, IGNORED_DIR, ".gitignore"), "*\n");
    copyFileSync(path.join(corpus.root, excludedCase.file), path.join(corpus.root, ignoredCopy));
  }
  writeFileSync(path.join(corpus.root, ".env"), ENV_TEXT);
  const formats: FormatResult[] = [];
  let excluded: ExcludedResult = { cases: 0, edits: 0, requests: 0, leaks: 0 };
  for (const [i, format] of options.formats.entries()) {
    const { sim, url, nextEdit } = await backend(format);
    const session = await editor(corpus, options.bin, url, nextEdit);
    const bodiesBefore = sim!.requests.length;
    if (i === 0 && excludedCase && ignoredCopy) {
      const source = sources.get(excludedCase.file)!;
      excluded = await runExcluded(session, sim!, format, source, excludedCase, ignoredCopy);
    }
    const runs: CaseRun[] = [];
    for (const edit of cases) {
      runs.push(await replayCase(session, sim!, format, sources.get(edit.file)!, edit));
      if (runs.length % 20 === 0)
        options.progress?.(`${corpus.name} ${format}: ${runs.length}/${cases.length}`);
    }
    if (i === 0) {
      const later = sim!.requests.slice(bodiesBefore).map((r) => JSON.stringify(r.body));
      excluded = {
        ...excluded,
        leaks: later.filter((body) => LEAKS.some((text) => body.includes(text))).length,
      };
    }
    const crashed = session.exited();
    if (!crashed) await session.shutdown();
    await sim!.close();
    formats.push({ format, runs, errors: [...session.errors], crashed });
  }
  const malformed = await runMalformed(corpus, options.bin, cases, sources);
  return {
    corpus,
    found,
    cases,
    formats,
    excluded,
    malformed,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The excluded files edited and asked about: the ignored copy as its case is made, and the `.env` renamed. */
async function runExcluded(
  session: EditorSession,
  sim: Sim,
  format: FormatName,
  source: SourceText,
  edit: EditCase,
  copy: string,
): Promise<ExcludedResult> {
  const requests = () => sim.requests.filter((r) => r.path === EDIT_PATHS[format]).length;
  const before = requests();
  let edits = 0;
  const ignoredRun = await replayCase(session, sim, format, source, { ...edit, file: copy });
  edits += ignoredRun.edits.length;
  await session.open(".env", ENV_TEXT);
  const name = { start: { line: 0, character: 0 }, end: { line: 0, character: "DATABASE_URL".length } };
  await session.change(".env", name, "");
  let at = { line: 0, character: 0 };
  for (const key of "PRIMARY_URL") {
    await session.change(".env", { start: at, end: at }, key);
    at = { line: 0, character: at.character + 1 };
  }
  edits += (await session.inlineEdit(".env", at)).length;
  await session.close(".env");
  return { cases: 2, edits, requests: requests() - before, leaks: 0 };
}

/** Each spoiler on a case of its own (renames first), on a server asking through the spoiling proxy. */
async function runMalformed(
  corpus: Corpus,
  bin: string,
  cases: readonly EditCase[],
  sources: ReadonlyMap<string, SourceText>,
): Promise<MalformedResult> {
  const sim = await startSim();
  const proxy = await spoilingProxy(sim);
  const session = await editor(corpus, bin, proxy.url, {});
  const chosen = [...cases].sort((a, b) => (a.kind === "rename" ? 0 : 1) - (b.kind === "rename" ? 0 : 1));
  let shown = 0;
  let count = 0;
  for (const [i, spoiler] of SPOILERS.entries()) {
    const edit = chosen[i];
    if (!edit) break;
    proxy.spoil(spoiler);
    const source = sources.get(edit.file)!;
    await session.open(edit.file, source.text);
    const text = afterFirst(source.text, edit);
    const end = positionOf(text, edit.first.start + edit.first.text.length);
    const start = positionOf(source.text, edit.first.start);
    await session.change(edit.file, { start, end: positionOf(source.text, edit.first.end) }, edit.first.text);
    shown += (await session.inlineEdit(edit.file, end).catch(() => [])).length;
    await session.close(edit.file);
    count++;
  }
  proxy.spoil(undefined);
  const crashes = (session.exited() ? 1 : 0) + session.errors.length;
  if (!session.exited()) await session.shutdown();
  await proxy.close();
  await sim.close();
  return { cases: count, shown, crashes };
}
