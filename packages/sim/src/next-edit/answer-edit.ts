import { deepseekRequest } from "./deepseek-request.js";
import { editedRegion } from "./edit-model.js";
import { instinctRequest } from "./instinct-request.js";
import type { EditModelInput, RequestFormat } from "./request-format.js";
import { sweepRequest } from "./sweep-request.js";
import { zetaRequest } from "./zeta-request.js";

export type { EditModelInput } from "./request-format.js";

/** The layouts tried in order: the raw prompts, then Instinct's chat (its system prompt), then deepseek's. */
const FORMATS: readonly RequestFormat[] = [zetaRequest, sweepRequest, instinctRequest, deepseekRequest];

/**
 * The simulator's next-edit model: the text a next-edit model writes after the prompt (after the prefix, for chat),
 * in the layout the request is in (Zed's Zeta, Sweep, Continue's Instinct, or infill's deepseek format). It reads the
 * user's edits and the editable region and applies the edit that follows from the last edit: a rename carried to the
 * other uses in the region, a parameter added to a declaration carried to its calls, a line's change repeated on its
 * twins; the region unchanged when none follows. "" for a request in no known layout. Deterministic.
 */
export function answerEdit(input: EditModelInput): string {
  for (const format of FORMATS) {
    const request = format.read(input);
    if (request) return request.write(editedRegion(request.task));
  }
  return "";
}
