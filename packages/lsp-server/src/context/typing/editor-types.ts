import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import type { Logger } from "../../log/logger.js";
import type { Family } from "../types.js";
import { type Receiver, receiverAt } from "./receivers.js";

/** Where the editor's language server says a type is declared: a file, and the line of the declaration's name. */
export interface TypeLocation {
  readonly uri: string;
  /** 0-based; a line does not depend on the position encoding, so nothing else of the answer is kept. */
  readonly line: number;
}

/**
 * Asks the editor where the types of the values at `positions` (UTF-16, in `doc`) are declared: one answer per
 * position, null for none. Rejects when the client fails; stops (and rejects) when `signal` aborts.
 */
export type TypeDefinitionAsk = (
  doc: OpenDocument,
  positions: readonly Position[],
  signal: AbortSignal,
) => Promise<ReadonlyArray<TypeLocation | null>>;

/** A type the editor located for the receiver at the cursor, and the member name typed after the receiver so far. */
export interface LocatedType extends TypeLocation {
  readonly member: string;
}

/** Options of {@link EditorTypes}. */
export interface EditorTypesOptions {
  /** How to ask the editor; undefined while it cannot be asked (the client did not offer `infill/typeDefinitions`). */
  ask: () => TypeDefinitionAsk | undefined;
  /** How long a request waits for an answer not known yet, in ms (`context.typeDefinitionMs`); 0 never asks. */
  budgetMs: () => number;
  log: Logger;
  /** An answer not come after this long is given up (the request cancelled, and counted a failure), in ms. Default 5000. */
  giveUpMs?: number;
  /** After this many failures in a row the client is asked no more. Default 3. */
  maxFailures?: number;
}

/** One receiver's question: its answer once known, or the question in flight. */
interface Entry {
  readonly receiver: Receiver;
  answer: readonly TypeLocation[] | undefined;
  readonly pending: Promise<readonly TypeLocation[]>;
  /** The files its answer points into: an edit there may move the declaration's line. */
  targets: readonly string[];
}

/** Questions remembered per document, at most: the cursor rarely comes back to older receivers. */
const MAX_ENTRIES = 32;

/**
 * What the editor's own language servers say of the receiver's type at the cursor, asked through the client
 * (`infill/typeDefinitions`) off the completion's way: a request waits for an answer at most `budgetMs`, and goes
 * without when it is later; the answer still lands in memory and serves the next request at that receiver. An
 * answer is kept while nothing before the receiver's end changes (typing the member name after it keeps it), and
 * while the file it points into is not edited. Failures and empty answers are silent (the debug log); a client
 * that fails `maxFailures` times in a row is not asked again.
 */
export class EditorTypes {
  readonly #entries = new Map<string, Map<string, Entry>>();
  #failures = 0;
  #off = false;

  constructor(private readonly options: EditorTypesOptions) {}

  /** Whether the editor may be asked now. */
  get asking(): boolean {
    return !this.#off && this.options.budgetMs() > 0 && this.options.ask() !== undefined;
  }

  /**
   * The types the editor locates for the receiver of a member access at the cursor (`mail` in `mail.│`, `position`
   * UTF-16, the language `family`'s operators), known or within the budget (or `quietMs`, the request's debounce,
   * when longer); none when the client cannot be asked. A type declared in the document itself is left out: the
   * prompt has it.
   */
  async typesAt(
    doc: OpenDocument,
    position: Position,
    family: Family | undefined,
    quietMs = 0,
  ): Promise<LocatedType[]> {
    if (!this.asking || position.line >= doc.buffer.lineCount) return [];
    const receiver = receiverAt(doc.buffer.lineAt(position.line), position, family);
    if (!receiver) return [];
    const locations = await this.locations(doc, receiver, quietMs);
    return locations.filter(({ uri }) => uri !== doc.uri).map((l) => ({ ...l, member: receiver.member }));
  }

  /**
   * The declarations of the receiver's type: at once when known, else what comes within the budget (or `quietMs`,
   * when longer: the time the request waits anyway), else none. Never rejects.
   */
  async locations(doc: OpenDocument, receiver: Receiver, quietMs = 0): Promise<readonly TypeLocation[]> {
    const budget = this.options.budgetMs();
    const ask = this.#off || budget <= 0 ? undefined : this.options.ask();
    if (!ask) return [];
    const entry = this.#entry(doc, receiver, ask);
    if (entry.answer) return entry.answer;
    return (await withinBudget(entry.pending, Math.max(budget, quietMs))) ?? [];
  }

  /** The answer known for the receiver, without asking. */
  known(uri: string, receiver: Receiver): readonly TypeLocation[] | undefined {
    return this.#entries.get(uri)?.get(keyOf(receiver))?.answer;
  }

  /** A document changed from `from` (UTF-16) on: what it said of receivers at or after it, and of its own types, goes. */
  changed(uri: string, from: Position): void {
    const own = this.#entries.get(uri);
    if (own) {
      for (const [key, { receiver }] of own)
        if (from.line < receiver.line || (from.line === receiver.line && from.character <= receiver.end))
          own.delete(key);
    }
    for (const entries of this.#entries.values())
      for (const [key, entry] of entries) if (entry.targets.includes(uri)) entries.delete(key);
  }

  /** A document was closed. */
  forget(uri: string): void {
    this.#entries.delete(uri);
  }

  #entry(doc: OpenDocument, receiver: Receiver, ask: TypeDefinitionAsk): Entry {
    let entries = this.#entries.get(doc.uri);
    if (!entries) {
      entries = new Map();
      this.#entries.set(doc.uri, entries);
    }
    const key = keyOf(receiver);
    const known = entries.get(key);
    if (known) return known;
    const entry: Entry = {
      receiver,
      answer: undefined,
      targets: [],
      pending: this.#ask(doc, receiver, ask).then((answer) => {
        entry.answer = answer;
        entry.targets = answer.map((location) => location.uri);
        return answer;
      }),
    };
    entries.set(key, entry);
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    return entry;
  }

  /** One question to the client; never rejects (a failure answers none, and counts). */
  async #ask(
    doc: OpenDocument,
    receiver: Receiver,
    ask: TypeDefinitionAsk,
  ): Promise<readonly TypeLocation[]> {
    const { log, giveUpMs = 5000, maxFailures = 3 } = this.options;
    const started = performance.now();
    const where = `${doc.uri}:${receiver.line + 1}:${receiver.character + 1}`;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), giveUpMs);
    timer.unref?.();
    try {
      const answers = await Promise.race([
        ask(doc, [{ line: receiver.line, character: receiver.character }], abort.signal),
        new Promise<never>((_, reject) =>
          abort.signal.addEventListener("abort", () => reject(new Error(`no answer in ${giveUpMs} ms`)), {
            once: true,
          }),
        ),
      ]);
      this.#failures = 0;
      const found = answers[0] ? [answers[0]] : [];
      const ms = (performance.now() - started).toFixed(1);
      log.debug(
        `type definitions at ${where}: ${found.map((l) => `${l.uri}:${l.line + 1}`).join(", ") || "none"} (${ms} ms)`,
      );
      return found;
    } catch (error) {
      this.#failures++;
      log.debug(
        `type definitions at ${where} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (this.#failures >= maxFailures && !this.#off) {
        this.#off = true;
        log.info(`type definitions: the client failed ${this.#failures} times in a row; not asking it again`);
      }
      return [];
    } finally {
      clearTimeout(timer);
    }
  }
}

function keyOf(receiver: Receiver): string {
  return `${receiver.line}:${receiver.character}:${receiver.end}`;
}

/** The promise's value if it settles within `ms`, else undefined (it runs on). */
function withinBudget<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
