// infill's deepseek format: chat, the user message's `### User Edits:` holding ```diff blocks and `### User Excerpt:`
// the fenced excerpt with the region markers; the answer begun (Chat Prefix Completion) with the start marker and the
// region's lines above the cursor's line. The model goes on from the cursor's line to the region's end and writes
// nothing past it (the request stops at the end marker): the lines the prefix holds stay as they are.
import { diffBlockEdits } from "./diff-blocks.js";
import { REGION_START, readMarkedExcerpt } from "./marked-excerpt.js";
import { lastMessage, type RequestFormat } from "./request-format.js";

const EDITS = "### User Edits:\n\n";
const EXCERPT = "### User Excerpt:\n\n";

/** Reads the deepseek format's messages; writes the region from the cursor's line on (all of it without a prefix). */
export const deepseekRequest: RequestFormat = {
  name: "deepseek",
  read(input) {
    const { prefix } = input;
    if (prefix !== undefined && !prefix.startsWith(REGION_START)) return undefined;
    const user = lastMessage(input, "user") ?? "";
    const editsAt = user.indexOf(EDITS);
    const excerptAt = user.lastIndexOf(EXCERPT);
    if (editsAt === -1 || excerptAt < editsAt) return undefined;
    const excerpt = readMarkedExcerpt(user.slice(excerptAt));
    if (!excerpt) return undefined;
    // The prefix holds the start marker's line and then whole lines.
    const above = prefix === undefined ? 0 : Math.max(0, prefix.split("\n").length - 2);
    return {
      task: { edits: diffBlockEdits(user.slice(editsAt, excerptAt)), region: excerpt.region },
      write: (region) => {
        const rest = `${region.slice(above).join("\n")}\n`;
        return prefix === undefined ? `${REGION_START}\n${rest}` : rest;
      },
    };
  },
};
