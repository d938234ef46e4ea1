import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../documents/documents.js";
import type { TextBuffer } from "../documents/text-buffer.js";
import { type CarriedEdit, mayNeedEdit } from "./carried-edit.js";
import type { Excerpt } from "./prompt/excerpt.js";
import { chooseRegion, type LineSpan, reachSites } from "./region.js";
import { indentShape } from "./region-indent.js";
import { syntaxShape } from "./region-syntax.js";

/** Lines of context above and below the region: enough for the model to see where it is. */
export const CONTEXT_LINES = 8;

/**
 * The excerpt of a request at `position` (UTF-16): the region chosen along the syntax tree where the language has one
 * loaded, else along indentation (see region.ts), within `maxLines`, with {@link CONTEXT_LINES} lines above and below;
 * moved to hold the nearest lines the user's last edit may be `carried` to, when it does not (`reachSites`). `path`
 * names the document in the prompt.
 */
export function excerptAt(
  doc: OpenDocument,
  position: Position,
  path: string,
  maxLines: number,
  carried?: CarriedEdit,
): Excerpt {
  const { buffer } = doc;
  const line = Math.min(position.line, buffer.lineCount - 1);
  const shape = syntaxShape(doc, position) ?? indentShape(buffer, line);
  let region = chooseRegion(line, buffer.lineCount, shape, maxLines);
  if (carried) {
    const sites: number[] = [];
    const from = Math.max(0, line - maxLines + 1);
    const to = Math.min(buffer.lineCount - 1, line + maxLines - 1);
    for (let at = from; at <= to; at++) {
      if (at !== line && mayNeedEdit(buffer.lineAt(at), carried)) sites.push(at);
    }
    region = reachSites(region, line, sites, maxLines);
  }
  return excerptOf(buffer, { line, character: position.character }, region, {
    path,
    languageId: doc.languageId,
  });
}

/**
 * The excerpt of `region` with the cursor at `cursor`: whole lines, each ending with `\n` but the document's last
 * (so that the three parts put together are the document's lines, line breaks as `\n`).
 */
export function excerptOf(
  buffer: Pick<TextBuffer, "lineAt" | "lineCount">,
  cursor: Position,
  region: LineSpan,
  names: { path: string; languageId: string },
  contextLines = CONTEXT_LINES,
): Excerpt {
  const top = Math.max(0, region.start - contextLines);
  const bottom = Math.min(buffer.lineCount - 1, region.end + contextLines);
  const text = (from: number, to: number) => {
    let lines = "";
    for (let line = from; line <= to; line++) {
      lines += buffer.lineAt(line);
      if (line < buffer.lineCount - 1) lines += "\n";
    }
    return lines;
  };
  const regionText = text(region.start, region.end);
  let cursorOffset = 0;
  for (let line = region.start; line < cursor.line; line++) cursorOffset += buffer.lineAt(line).length + 1;
  cursorOffset += Math.min(cursor.character, buffer.lineAt(cursor.line).length);
  return {
    path: names.path,
    languageId: names.languageId,
    startsFile: top === 0,
    beforeRegion: text(top, region.start - 1),
    region: regionText,
    regionStartLine: region.start,
    cursorOffset: Math.min(cursorOffset, regionText.length),
    afterRegion: text(region.end + 1, bottom),
  };
}
