import { defaultSettings, mergeSettings, type Settings, type SettingsLayer } from "./settings.js";

/** Collaborators of a {@link SettingsStore}. */
export interface SettingsStoreOptions {
  /** Where `INFILL_MODEL` and `INFILL_BASE_URL` come from (the defaults' layer). */
  env: NodeJS.ProcessEnv;
  /**
   * A setting was ignored (`infill: ignoring initializationOptions: maxTokens: …`). Called every time it is read;
   * `firstTime` is true the first time this problem is seen, so the user is shown each problem once.
   */
  onProblem(problem: string, firstTime: boolean): void;
  /** The effective settings changed. */
  onChange?(settings: Settings): void;
}

/**
 * The server's settings, in three layers: built-in defaults < `initializationOptions` < the `infill` section of
 * `workspace/configuration`. Each setting is checked on its own; a bad value is reported and its last good value
 * kept. The schema (zod) is loaded on the first read, after `initialize` is answered: it is the largest part of the
 * start-up otherwise.
 */
export class SettingsStore {
  readonly #base: Settings;
  #init: SettingsLayer = {};
  #workspace: SettingsLayer = {};
  #current: Settings;
  readonly #seen = new Set<string>();
  #schema: Promise<typeof import("./settings-schema.js")> | undefined;
  #ready: Promise<void> = Promise.resolve();

  constructor(private readonly options: SettingsStoreOptions) {
    this.#base = defaultSettings(options.env);
    this.#current = this.#base;
  }

  /** The effective settings now. */
  get current(): Settings {
    return this.#current;
  }

  /** Resolves once every read started so far is applied: completions wait for it. Never rejects. */
  get ready(): Promise<void> {
    return this.#ready;
  }

  /** Read `initializationOptions` (our keys at the top, or under an `infill` section), in the background. */
  initialize(raw: unknown): void {
    this.#ready = this.#read(infillSection(raw), "initializationOptions", this.#init).then((layer) => {
      this.#init = layer;
      this.#apply();
    });
  }

  /**
   * Read the workspace layer: from `fetch` (the client's `workspace/configuration`, when it has it), else from
   * `pushed` (the params of `workspace/didChangeConfiguration`, our keys at the top or under `infill`).
   */
  async pull(fetch: (() => Promise<unknown>) | undefined, pushed?: unknown): Promise<void> {
    const raw = fetch ? await fetch().catch(() => undefined) : infillSection(pushed);
    this.#workspace = await this.#read(raw, "workspace settings", this.#workspace);
    this.#apply();
  }

  /** Run `task` once the reads started so far are applied; completions wait for it too. */
  after(task: () => Promise<void> | void): void {
    this.#ready = this.#ready.then(task).catch(() => {});
  }

  /** Read a layer; a known key with a bad value keeps its value from `previous` (the last good one). */
  async #read(raw: unknown, source: string, previous: SettingsLayer): Promise<SettingsLayer> {
    this.#schema ??= import("./settings-schema.js");
    const { parseLayer } = await this.#schema;
    const { layer, problems, rejected } = parseLayer(raw ?? null, source);
    for (const key of rejected) {
      const kept = previous[key as keyof SettingsLayer];
      if (kept !== undefined) (layer as Record<string, unknown>)[key] = kept;
    }
    for (const problem of problems) {
      const firstTime = !this.#seen.has(problem);
      this.#seen.add(problem);
      this.options.onProblem(problem, firstTime);
    }
    return layer;
  }

  #apply(): void {
    const next = mergeSettings(this.#base, this.#init, this.#workspace);
    const changed = JSON.stringify(next) !== JSON.stringify(this.#current);
    this.#current = next;
    if (changed) this.options.onChange?.(next);
  }
}

/** Editors put their own keys next to ours; the server's keys may also sit under an `infill` section. */
export function infillSection(raw: unknown): unknown {
  return raw && typeof raw === "object" && "infill" in raw ? (raw as { infill: unknown }).infill : raw;
}
