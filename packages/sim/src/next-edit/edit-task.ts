/** An edit the user made, as a next-edit prompt shows it: its lines before and after (context included), no "\n". */
export interface ShownEdit {
  before: string[];
  after: string[];
}

/** What the edit model works on: the user's edits, oldest first, and the editable region's lines (no "\n"). */
export interface EditTask {
  edits: ShownEdit[];
  region: string[];
}

/** The editable region's lines changed by one edit model rule, or `undefined` when the rule does not apply. */
export type RegionRule = (region: readonly string[], lastEdit: ShownEdit) => string[] | undefined;
