// Zed's Zeta: a raw prompt (`### Instruction:`, `### User Edits:` with ```diff blocks, `### User Excerpt:` with the
// fenced excerpt and its region markers, `### Response:`); the model writes the excerpt again, the region rewritten,
// fence and context included, as Zed's tests show (crates/zeta/src/zeta.rs, test_edit_prediction_end_of_buffer).
// The request's stop (`<|editable_region_end|>`) cuts it; the routes apply it.
import { diffBlockEdits } from "./diff-blocks.js";
import { readMarkedExcerpt } from "./marked-excerpt.js";
import type { RequestFormat } from "./request-format.js";

const EDITS = "### User Edits:\n\n";
const EXCERPT = "\n\n### User Excerpt:\n\n";
const RESPONSE = "\n\n### Response:";

/** Reads Zeta's prompt; writes the excerpt with the region rewritten. */
export const zetaRequest: RequestFormat = {
  name: "zeta",
  read({ prompt }) {
    if (!prompt?.startsWith("### Instruction:\n")) return undefined;
    const editsAt = prompt.indexOf(EDITS);
    const excerptAt = prompt.lastIndexOf(EXCERPT);
    const responseAt = prompt.lastIndexOf(RESPONSE);
    if (editsAt === -1 || excerptAt < editsAt || responseAt < excerptAt) return undefined;
    const excerpt = readMarkedExcerpt(prompt.slice(excerptAt + EXCERPT.length, responseAt));
    if (!excerpt) return undefined;
    return {
      task: { edits: diffBlockEdits(prompt.slice(editsAt, excerptAt)), region: excerpt.region },
      write: (region) => `${excerpt.head}${region.join("\n")}${excerpt.tail}`,
    };
  },
};
