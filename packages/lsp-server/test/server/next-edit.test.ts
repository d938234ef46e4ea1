import { describe, expect, it } from "vitest";
import type { CodeAction, Position, Range } from "vscode-languageserver-protocol";
import { type Session, sessions } from "../support/session.js";

const start = sessions();

const shown = (s: Session) =>
  s.messages("window/showMessage").map((m) => (m.params as { message: string }).message);

/** What copilot-lsp reads of an edit (lua/copilot-lsp/types.lua: copilotlsp.InlineEdit). */
interface InlineEdit {
  range: Range;
  text: string;
  textDocument: { uri: string; version: number };
  command: { title: string; command: string; arguments: unknown[] };
}

/**
 * A client that does what copilot-lsp does (lua/copilot-lsp/nes/init.lua, util.lua): `request_nes` sends
 * `make_position_params(0, "utf-16")` with `textDocument.version` set to the buffer's version; the handler reads
 * `result.edits` (no nil check: a null result would fail), copies each edit's `text` to `newText`, shows the first
 * and notifies `textDocument/didShowInlineEdit` with `{ item = { command = edits[1].command } }`;
 * `apply_pending_nes` applies that one edit with `vim.lsp.util.apply_text_edits` and runs no command.
 */
class CopilotLsp {
  pending: (InlineEdit & { newText: string }) | undefined;

  constructor(readonly s: Session) {}

  async requestNes(uri: string, position: Position): Promise<InlineEdit[]> {
    const result = (await this.s.client.sendRequest("textDocument/copilotInlineEdit", {
      textDocument: { uri, version: this.s.version(uri) },
      position,
    })) as { edits: InlineEdit[] };
    const edits = result.edits.map((edit) => ({ ...edit, newText: edit.text }));
    this.pending = edits[0];
    if (edits.length > 0) {
      await this.s.client.sendNotification("textDocument/didShowInlineEdit", {
        item: { command: edits[0]!.command },
      });
    }
    return result.edits;
  }

  async applyPendingNes(): Promise<void> {
    const edit = this.pending!;
    this.pending = undefined;
    await this.s.replace(edit.textDocument.uri, edit.range, edit.newText);
  }
}

describe("next edits over LSP", () => {
  it("advertises code actions of kind refactor.rewrite and the accept command", async () => {
    const s = await start();
    const { capabilities } = s.initializeResult;
    expect(capabilities.codeActionProvider).toEqual({ codeActionKinds: ["refactor.rewrite"] });
    expect((capabilities.executeCommandProvider as { commands: string[] }).commands).toContain(
      "infill.nextEditAccepted",
    );
  });

  it("answers { edits: [] } (never null) while next edits are off, and refuses params without a position", async () => {
    const s = await start();
    const uri = "file:///off.ts";
    await s.open(uri, "let total = 0;\n");
    const nes = new CopilotLsp(s);
    expect(await nes.requestNes(uri, { line: 0, character: 0 })).toEqual([]);
    await expect(
      s.client.sendRequest("textDocument/copilotInlineEdit", { textDocument: { uri, version: 1 } }),
    ).rejects.toThrow(/textDocument\/copilotInlineEdit: position: expected an object/);
    const actions = await s.client.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], triggerKind: 1 },
    });
    expect(actions).toEqual([]);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("names nextEdit.format once when a local provider has none, and asks nothing", async () => {
    const s = await start({
      initializationOptions: {
        debounceMs: 0,
        nextEdit: { enabled: true, provider: "ollama", debounceMs: 0 },
      },
    });
    const uri = "file:///local.ts";
    await s.open(uri, "let total = 0;\nuse(total);\n");
    await s.replace(uri, { start: { line: 0, character: 4 }, end: { line: 0, character: 9 } }, "sum");
    const nes = new CopilotLsp(s);
    expect(await nes.requestNes(uri, { line: 0, character: 7 })).toEqual([]);
    await s.until(() => shown(s).some((m) => m.includes('"nextEdit.format" is required')), "the notice");
    await s.replace(uri, { start: { line: 0, character: 7 }, end: { line: 0, character: 7 } }, "s");
    expect(await nes.requestNes(uri, { line: 0, character: 8 })).toEqual([]);
    expect(shown(s).filter((m) => m.includes("nextEdit.format"))).toHaveLength(1);
  });
});

export type { CodeAction };
