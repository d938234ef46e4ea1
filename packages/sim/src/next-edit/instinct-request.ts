// Continue's Instinct: chat, its system prompt first; the user message's `### User Edits:` holds ```diff blocks and
// `### User Excerpt:` the path, the excerpt with the region markers, a closing fence and `### Response:`. As its
// system prompt asks, the model writes the region's lines alone, no markers (continuedev/continue core/nextEdit).
import { diffBlockEdits } from "./diff-blocks.js";
import { readMarkedExcerpt } from "./marked-excerpt.js";
import { lastMessage, type RequestFormat } from "./request-format.js";

const EDITS = "### User Edits:\n\n";
const EXCERPT = "\n\n### User Excerpt:\n";
const RESPONSE = "```\n### Response:";

/** Reads Instinct's messages; writes the region's lines. */
export const instinctRequest: RequestFormat = {
  name: "instinct",
  read(input) {
    if (!lastMessage(input, "system")?.startsWith("You are Instinct")) return undefined;
    const user = lastMessage(input, "user") ?? "";
    const editsAt = user.indexOf(EDITS);
    const excerptAt = user.lastIndexOf(EXCERPT);
    const responseAt = user.lastIndexOf(RESPONSE);
    if (editsAt === -1 || excerptAt < editsAt || responseAt < excerptAt) return undefined;
    const excerpt = readMarkedExcerpt(user.slice(excerptAt, responseAt));
    if (!excerpt) return undefined;
    return {
      task: { edits: diffBlockEdits(user.slice(editsAt, excerptAt)), region: excerpt.region },
      write: (region) => region.join("\n"),
    };
  },
};
