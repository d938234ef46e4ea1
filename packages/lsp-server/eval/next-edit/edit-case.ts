// What a next-edit case is, whichever finder found it: the edit a user makes at the first site, and the edits the
// change still needs at the others (the sites a next-edit model should suggest). Pure.

/** The kinds of multi-site change replayed. */
export type CaseKind = "rename" | "parameter" | "twin" | "lone";

/** Every kind, in report order: the multi-site changes, then the control whose right answer is no suggestion. */
export const CASE_KINDS: readonly CaseKind[] = ["rename", "parameter", "twin", "lone"];

/** What each kind is, for the report. */
export const CASE_LABELS: Record<CaseKind, string> = {
  rename: "a local renamed at its declaration",
  parameter: "a parameter added, carried to the calls",
  twin: "one of two twin lines changed",
  lone: "a number changed on a line with no twin (the control: nothing follows, any suggestion is false)",
};

/** Replace `[start, end)` of a text (offsets) by `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A multi-site change found in a corpus file. */
export interface EditCase {
  /** Stable: file, kind, line and what changes (the sampling ranks it). */
  readonly id: string;
  readonly kind: CaseKind;
  /** Workspace-relative, `/`-separated. */
  readonly file: string;
  /**
   * The user's edit at the first site, in the file's text: `[start, end)` deleted, then `text` typed at `start` a
   * character at a time.
   */
  readonly first: TextEdit;
  /** The edits still to make once `first` is made, in the file's text, none overlapping `first` or each other. */
  readonly rest: readonly TextEdit[];
  /** One line for the report: `total → newTotal`, `scale(…, depth)`, `0 → 1`. */
  readonly what: string;
}

/** `text` with the edits made (offsets in `text`, none overlapping). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  return out;
}

/** The file as the user leaves it after the first site: what the next edit is asked for. */
export function afterFirst(text: string, edit: EditCase): string {
  return applyEdits(text, [edit.first]);
}

/** The file with the change finished: every site made. */
export function finished(text: string, edit: EditCase): string {
  return applyEdits(text, [edit.first, ...edit.rest]);
}

/** The remaining edits moved into the text after the first site (their offsets there). */
export function restAfterFirst(edit: EditCase): TextEdit[] {
  const { first } = edit;
  const delta = first.text.length - (first.end - first.start);
  return edit.rest.map((site) =>
    site.start >= first.end ? { start: site.start + delta, end: site.end + delta, text: site.text } : site,
  );
}
