import type { AppliedChange } from "../../documents/position-map.js";
import type { TextBuffer } from "../../documents/text-buffer.js";
import type { EditEvent } from "../prompt/excerpt.js";
import { EVENT_BUDGET, type EventBudget, eventsOf } from "./edit-events.js";
import { type EditGroup, recordChange } from "./edit-groups.js";
import { notificationChange } from "./line-change.js";

/** Groups kept over every document, at most: far more than a prompt carries, a few kilobytes. */
const MAX_GROUPS = 64;

/** Collaborators of an {@link EditHistory}. */
export interface EditHistoryOptions {
  /**
   * Whether a document's edits may be kept and sent: inside the workspace and not excluded by the context policy
   * (secrets, `.gitignore`, `context.exclude`). Asked once per document until {@link EditHistory.policyChanged}.
   */
  mayUse: (uri: string) => Promise<boolean>;
  /** How a document is named in prompts: workspace-relative, `/` separators; undefined outside the workspace. */
  pathOf: (uri: string) => string | undefined;
  /** The clock, ms. Default `performance.now`. */
  now?: () => number;
}

/**
 * The user's recent edits over every document, grouped into the edits a person makes (see edit-groups.ts), from the
 * changes `didChange` applied. A change costs the lines it touches (no document text is copied); a document the
 * policy excludes keeps nothing: its changes are dropped as soon as its verdict is known, and none is ever sent.
 */
export class EditHistory {
  readonly #groups: EditGroup[] = [];
  readonly #verdicts = new Map<string, boolean | Promise<boolean>>();
  readonly #now: () => number;

  constructor(private readonly options: EditHistoryOptions) {
    this.#now = options.now ?? (() => performance.now());
  }

  /** A `didChange` of `uri` was applied: its changes, and the document's text after them. */
  record(uri: string, changes: readonly AppliedChange[], text: TextBuffer): void {
    if (this.#verdict(uri) === false) return;
    try {
      const change = notificationChange(changes, (line) => text.lineAt(line));
      if (!change || (change.oldLines.length === 0 && change.newLines.length === 0)) return;
      recordChange(this.#groups, uri, change, text, this.#now());
    } catch {
      // A change the client and server disagree about (lines out of range) is not worth an event.
      return;
    }
    if (this.#groups.length > MAX_GROUPS) this.#groups.splice(0, this.#groups.length - MAX_GROUPS);
  }

  /** The events a prompt carries now (see edit-events.ts), once every document's verdict is known. */
  async events(budget: EventBudget = EVENT_BUDGET): Promise<EditEvent[]> {
    const uris = new Set(this.#groups.map((group) => group.uri));
    await Promise.all([...uris].map((uri) => this.#verdict(uri)));
    return eventsOf(
      this.#groups,
      (uri) => (this.#verdicts.get(uri) === true ? this.options.pathOf(uri) : undefined),
      budget,
    );
  }

  /**
   * `uri` closed, or opened again: its text may be another now (reloaded from disk, checked out), so no later change
   * joins an edit made before; what was edited stays in the history.
   */
  documentGone(uri: string): void {
    for (const group of this.#groups) if (group.uri === uri) group.open = false;
  }

  /** The policy may have changed (settings, workspace folders, an ignore file): verdicts are asked again. */
  policyChanged(): void {
    this.#verdicts.clear();
  }

  /** The document's verdict: known, or on its way (its changes are kept meanwhile, and dropped if it says no). */
  #verdict(uri: string): boolean | Promise<boolean> {
    const known = this.#verdicts.get(uri);
    if (known !== undefined) return known;
    const pending = this.options.mayUse(uri).then(
      (allowed) => allowed,
      () => false,
    );
    const settled = pending.then((allowed) => {
      if (this.#verdicts.get(uri) === settled) this.#verdicts.set(uri, allowed);
      if (!allowed) this.#drop(uri);
      return allowed;
    });
    this.#verdicts.set(uri, settled);
    return settled;
  }

  #drop(uri: string): void {
    for (let i = this.#groups.length - 1; i >= 0; i--)
      if (this.#groups[i]!.uri === uri) this.#groups.splice(i, 1);
  }
}
