// The receiver of the member access at the cursor, as the block's cache and chooser read it from the document.
import type { Position } from "vscode-languageserver";
import type { OpenDocument } from "../../documents/documents.js";
import { RECEIVER_LINES, type Receiver, receiverAt } from "../typing/expression.js";
import type { TypingRules } from "../typing/rules.js";

/**
 * The receiver the cursor's member access is on (`mail` in `await mail.de│`), read from the cursor's line and the
 * few before it (a chain continued from them), or undefined. A bare name the file's imports bind (`ns.`, an
 * imported class's `Type.`) is left to the declarations of imported names.
 */
export function cursorReceiver(
  doc: OpenDocument,
  position: Position,
  rules: TypingRules,
  imported: ReadonlySet<string>,
): Receiver | undefined {
  const typed = doc.buffer.lineAt(position.line).slice(0, position.character);
  // Most requests are not after a member operator: nothing to read then.
  if (!/(?:\.|->)[\p{L}\p{N}_$]*$/u.test(typed)) return undefined;
  const lines: string[] = [];
  for (let line = Math.max(0, position.line - RECEIVER_LINES); line < position.line; line++)
    lines.push(doc.buffer.lineAt(line));
  lines.push(typed);
  const receiver = receiverAt(lines.join("\n"), rules.expressions);
  if (receiver?.receiver.kind === "name" && imported.has(receiver.receiver.name)) return undefined;
  return receiver;
}
