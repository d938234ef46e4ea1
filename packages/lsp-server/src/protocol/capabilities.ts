import { type InitializeResult, TextDocumentSyncKind } from "vscode-languageserver";
import type { PositionEncoding } from "../documents/position-encoding.js";
import {
  ACCEPTED_COMMAND,
  NEXT_EDIT_ACCEPTED_COMMAND,
  SHOWN_COMMAND,
  STATUS_COMMAND,
} from "../stats/commands.js";
import { NEXT_EDIT_ACTION_KIND } from "./next-edit-actions.js";
import { PARTIAL_CAPABILITY } from "./partial-results.js";

/** What `initialize` answers: the server's capabilities, in the position encoding negotiated with the client. */
export function initializeResult(encoding: PositionEncoding, version: string): InitializeResult {
  return {
    capabilities: {
      positionEncoding: encoding,
      textDocumentSync: {
        openClose: true,
        change: TextDocumentSyncKind.Incremental,
        // Saves refresh the repository context that depends on the saved file.
        save: { includeText: false },
      },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      completionProvider: { resolveProvider: false },
      inlineCompletionProvider: true,
      // Next edits for editors that render no inline edits (Helix, Eglot); `textDocument/copilotInlineEdit`, a
      // method of copilot-language-server's outside LSP, is answered to any client that asks.
      codeActionProvider: { codeActionKinds: [NEXT_EDIT_ACTION_KIND] },
      executeCommandProvider: {
        commands: [ACCEPTED_COMMAND, SHOWN_COMMAND, STATUS_COMMAND, NEXT_EDIT_ACCEPTED_COMMAND],
      },
      experimental: PARTIAL_CAPABILITY,
    },
    serverInfo: { name: "infill-lsp", version },
  };
}
