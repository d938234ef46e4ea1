import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { SimOptions } from "@infill/sim";
import { afterAll, describe, expect, it } from "vitest";
import type { CodeAction, Position, Range, TextDocumentEdit, TextEdit } from "vscode-languageserver-protocol";
import { CancellationTokenSource, type Session, sessions } from "../support/session.js";

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

const root = mkdtempSync(join(tmpdir(), "infill-next-edit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A session with next edits on (from the session's sim, as DeepSeek) in a workspace folder, and a file's URI; with
 * `workspaceEdit`, the client's capability (`documentChanges`, as Helix and Eglot say).
 */
async function workspace(
  file: string,
  nextEdit: object = {},
  sim: SimOptions = {},
  built = false,
  workspaceEdit?: { documentChanges: boolean },
) {
  const s = await start({
    built,
    sim,
    ...(workspaceEdit ? { capabilities: { workspace: { workspaceEdit } } } : {}),
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "w" }],
    // A pause longer than the gap between the test's keystrokes, which it sends back to back: one pause per rename.
    initializationOptions: { debounceMs: 0, nextEdit: { enabled: true, debounceMs: 500, ...nextEdit } },
  });
  return { s, uri: pathToFileURL(join(root, file)).href };
}

/** The next-edit requests the sim received (DeepSeek's Chat Prefix Completion). */
const editRequests = (s: Session) =>
  s.sim.requests.filter((r) => (r as { path?: string }).path === "/beta/chat/completions");

const AVERAGE = `export function average(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}
`;

const range = (sl: number, sc: number, el: number, ec: number): Range => ({
  start: { line: sl, character: sc },
  end: { line: el, character: ec },
});

/** `textDocument/codeAction` for `uri` on `line` (or `at`), with `triggerKind` when given (Eglot 1.17 sends none). */
function codeActions(s: Session, uri: string, triggerKind: 1 | 2 | undefined, line: number, at?: Range) {
  return s.client.sendRequest("textDocument/codeAction", {
    textDocument: { uri },
    range: at ?? range(line, 0, line, 0),
    context: { diagnostics: [], ...(triggerKind ? { triggerKind } : {}) },
  }) as Promise<CodeAction[]>;
}

/** The rename typed at the declaration, as a user does: the old name deleted, the new one a key at a time. */
async function renameAtDeclaration(s: Session, uri: string): Promise<Position> {
  await s.replace(uri, range(1, 6, 1, 11), "");
  let at: Position = { line: 1, character: 6 };
  for (const key of "sum") at = await s.type(uri, at, key);
  return at;
}

describe("next edits end to end, against the sim's edit model", () => {
  it("carries a rename to the other uses: Tab applies the first edit, and the rest comes from memory", async () => {
    const { s, uri } = await workspace("average.ts");
    await s.open(uri, AVERAGE);
    // copilot-lsp (and sidekick.nvim) tell Copilot which buffer has the focus; infill has no use for it.
    await s.client.sendNotification("textDocument/didFocus", { textDocument: { uri } });
    const at = await renameAtDeclaration(s, uri);
    const nes = new CopilotLsp(s);
    const first = await nes.requestNes(uri, at);
    expect(first.map((e) => [e.range, e.text])).toEqual([
      [range(2, 30, 2, 35), "sum"],
      [range(3, 9, 3, 14), "sum"],
    ]);
    expect(first[0]!.textDocument).toEqual({ uri, version: s.version(uri) });
    expect(first[0]!.command).toEqual({
      title: "Accept next edit",
      command: "infill.nextEditAccepted",
      arguments: [expect.any(String)],
    });
    expect(editRequests(s)).toHaveLength(1);
    // Tab: the first edit applied; copilot-lsp asks again at the new version, from the end of the edit.
    await nes.applyPendingNes();
    const rest = await nes.requestNes(uri, { line: 2, character: 33 });
    expect(rest.map((e) => [e.range, e.text])).toEqual([[range(3, 9, 3, 14), "sum"]]);
    await nes.applyPendingNes();
    expect(s.text(uri)).toBe(AVERAGE.replaceAll("total", "sum"));
    // No upstream request for the rest, and the edits were shown and taken.
    expect(editRequests(s)).toHaveLength(1);
    const status = (await s.client.sendRequest("workspace/executeCommand", {
      command: "infill.status",
      arguments: [{ message: false }],
    })) as { nextEdits: { requests: number; shown: number; accepted: number; dismissed: number } };
    // The characters the two edits put in the document, followed for the retention checks.
    expect(status.nextEdits).toMatchObject({
      requests: 1,
      shown: 2,
      accepted: 2,
      dismissed: 0,
      acceptedChars: 6,
    });
    expect(s.messages("window/logMessage").filter((m) => (m.params as { type: number }).type === 1)).toEqual(
      [],
    );
  });

  it("works through the built server (the engine loads as a chunk once next edits are on)", async () => {
    const { s, uri } = await workspace("built.ts", {}, {}, true);
    await s.open(uri, AVERAGE);
    const at = await renameAtDeclaration(s, uri);
    expect((await new CopilotLsp(s).requestNes(uri, at)).map((e) => e.text)).toEqual(["sum", "sum"]);
    expect(editRequests(s)).toHaveLength(1);
  });

  it("asks the embedded sim with provider sim: no key, no network", async () => {
    const s = await start({
      env: { DEEPSEEK_API_KEY: "" },
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "w" }],
      initializationOptions: { provider: "sim", debounceMs: 0, nextEdit: { enabled: true, debounceMs: 500 } },
    });
    const uri = pathToFileURL(join(root, "embedded.ts")).href;
    await s.open(uri, AVERAGE);
    const at = await renameAtDeclaration(s, uri);
    expect((await new CopilotLsp(s).requestNes(uri, at)).map((e) => e.text)).toEqual(["sum", "sum"]);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("answers moving the cursor back and forth from memory, and a version that is not the document's with nothing", async () => {
    const { s, uri } = await workspace("moves.ts");
    await s.open(uri, AVERAGE);
    const at = await renameAtDeclaration(s, uri);
    const nes = new CopilotLsp(s);
    expect(await nes.requestNes(uri, at)).toHaveLength(2);
    const near3 = await nes.requestNes(uri, { line: 3, character: 0 });
    expect(near3[0]!.range.start.line).toBe(3);
    expect(await nes.requestNes(uri, at)).toHaveLength(2);
    expect(editRequests(s)).toHaveLength(1);
    const stale = (await s.client.sendRequest("textDocument/copilotInlineEdit", {
      textDocument: { uri, version: s.version(uri) - 1 },
      position: at,
    })) as { edits: unknown[] };
    expect(stale).toEqual({ edits: [] });
  });

  it("aborts upstream a request made stale by typing, and answers `$/cancelRequest` at once", async () => {
    // The sim answers after a minute: the request is in flight for as long as the test needs.
    const { s, uri } = await workspace("stale.ts", {}, { latencyMs: 60_000 });
    await s.open(uri, AVERAGE);
    const at = await renameAtDeclaration(s, uri);
    const cancel = new CancellationTokenSource();
    const asked = s.client.sendRequest(
      "textDocument/copilotInlineEdit",
      { textDocument: { uri, version: s.version(uri) }, position: at },
      cancel.token,
    );
    await s.until(() => editRequests(s).length === 1, "the request upstream");
    cancel.cancel();
    expect(await asked).toEqual({ edits: [] });
    expect(editRequests(s)[0]!.aborted).toBe(false);
    // A key typed: that request's answer would be for a text that is gone.
    await s.type(uri, at, ";");
    await s.until(() => editRequests(s)[0]!.aborted, "the stale request aborted");
  });

  it("works as sidekick.nvim uses it: every edit applied at once, each command run", async () => {
    const { s, uri } = await workspace("sidekick.ts");
    await s.open(uri, AVERAGE);
    const at = await renameAtDeclaration(s, uri);
    // sidekick.nvim's update(): make_position_params with the client's encoding, the version, triggerKind 2.
    const result = (await s.client.sendRequest("textDocument/copilotInlineEdit", {
      textDocument: { uri, version: s.version(uri) },
      position: at,
      context: { triggerKind: 2 },
    })) as { edits: InlineEdit[] };
    // apply(): vim.lsp.util.apply_text_edits of them all (last first), then client:exec_cmd(edit.command) each.
    for (const edit of [...result.edits].sort((a, b) => b.range.start.line - a.range.start.line))
      await s.replace(uri, edit.range, edit.text);
    for (const edit of result.edits)
      await s.client.sendRequest("workspace/executeCommand", {
        command: edit.command.command,
        arguments: edit.command.arguments,
      });
    expect(s.text(uri)).toBe(AVERAGE.replaceAll("total", "sum"));
    const status = (await s.client.sendRequest("workspace/executeCommand", {
      command: "infill.status",
      arguments: [{ message: false }],
    })) as { nextEdits: { accepted: number } };
    expect(status.nextEdits.accepted).toBe(2);
  });

  it("offers the edits as code actions on the lines they touch: from memory when automatic, asked when invoked", async () => {
    const { s, uri } = await workspace("actions.ts");
    await s.open(uri, AVERAGE);
    await renameAtDeclaration(s, uri);
    const invoked = await codeActions(s, uri, 1, 3);
    expect(invoked).toHaveLength(1);
    expect(invoked[0]).toMatchObject({
      title: 'Next edit: replace "total" with "sum"',
      kind: "refactor.rewrite",
      edit: { changes: { [uri]: [{ range: range(3, 9, 3, 14), newText: "sum" }] } },
      command: { command: "infill.nextEditAccepted" },
    });
    expect((await codeActions(s, uri, 2, 2)).map((a) => a.title)).toEqual([
      'Next edit: replace "total" with "sum"',
    ]);
    expect(await codeActions(s, uri, 2, 0)).toEqual([]);
    expect(await codeActions(s, uri, 2, 1)).toEqual([]);
    expect(editRequests(s)).toHaveLength(1);
  });

  it("walks a rename from the declaration as Helix does (space a, Enter): each time the nearest edit, titled with its line; the rest from memory; counted shown and taken", async () => {
    const { s, uri } = await workspace("helix-walk.ts", {}, {}, false, { documentChanges: true });
    await s.open(uri, AVERAGE);
    await renameAtDeclaration(s, uri);
    // Helix asks for the primary selection (the character under the cursor), invoked, and applies the action's
    // edit, then runs its command.
    for (const line of [2, 3]) {
      const [action, ...others] = await codeActions(s, uri, 1, 1, range(1, 8, 1, 9));
      expect(others).toEqual([]);
      expect(action!.title).toBe(`Next edit (line ${line + 1}): replace "total" with "sum"`);
      const [change] = action!.edit!.documentChanges as TextDocumentEdit[];
      expect(change!.textDocument).toEqual({ uri, version: s.version(uri) });
      const [edit] = change!.edits as TextEdit[];
      await s.replace(uri, edit!.range, edit!.newText);
      await s.client.sendRequest("workspace/executeCommand", action!.command);
    }
    expect(s.text(uri)).toBe(AVERAGE.replaceAll("total", "sum"));
    expect(editRequests(s)).toHaveLength(1);
    const { nextEdits } = (await s.client.sendRequest("workspace/executeCommand", {
      command: "infill.status",
      arguments: [{ message: false }],
    })) as { nextEdits: { shown: number; accepted: number; dismissed: number } };
    expect(nextEdits).toMatchObject({ shown: 2, accepted: 2, dismissed: 0 });
  });

  it("answers a request without triggerKind (Eglot 1.17, lsp-mode) once the pause's request is answered, and asks nothing of its own", async () => {
    const { s, uri } = await workspace("eglot.ts");
    await s.open(uri, AVERAGE);
    // No edit since the file opened: nothing under way, nothing asked.
    expect(await codeActions(s, uri, undefined, 1)).toEqual([]);
    expect(editRequests(s)).toHaveLength(0);
    // Right after the rename, while the pause runs (Eglot sends its changes just before the request).
    await renameAtDeclaration(s, uri);
    const [action] = await codeActions(s, uri, undefined, 1, range(1, 6, 1, 9));
    expect(action!.title).toBe('Next edit (line 3): replace "total" with "sum"');
    expect(editRequests(s)).toHaveLength(1);
  });

  it("sends the pause's request that gave way to the completion menu Helix opened during the rename once the user asks for code actions", async () => {
    const { s, uri } = await workspace("menu.ts");
    await s.open(uri, AVERAGE);
    // Nothing before an edit (and the engine, loaded once next edits are on, is there for the rename's edits).
    expect(await codeActions(s, uri, undefined, 1)).toEqual([]);
    const at = await renameAtDeclaration(s, uri);
    // Helix asks for completions after two word characters and a pause: infill's item is in the menu at the cursor.
    const items = (await s.client.sendRequest("textDocument/completion", {
      textDocument: { uri },
      position: at,
    })) as { items: unknown[] } | unknown[];
    expect((Array.isArray(items) ? items : items.items).length).toBeGreaterThan(0);
    // The pause is over and its request gave way: a request without triggerKind (Eglot 1.17) waits for the pause.
    const status = () =>
      s.client.sendRequest("workspace/executeCommand", {
        command: "infill.status",
        arguments: [{ message: false }],
      }) as Promise<{
        nextEdits: { requests: number };
      }>;
    expect(editRequests(s)).toHaveLength(0);
    const [action] = await codeActions(s, uri, undefined, 1, range(1, 8, 1, 9));
    expect(action?.title).toBe('Next edit (line 3): replace "total" with "sum"');
    expect(editRequests(s)).toHaveLength(1);
    expect((await status()).nextEdits.requests).toBe(1);
  });

  it("costs no upstream request when an editor asks by itself on every cursor move (triggerKind automatic)", async () => {
    const { s, uri } = await workspace("automatic.ts");
    await s.open(uri, AVERAGE);
    const everyLine = async () => {
      const titles: string[][] = [];
      for (let line = 0; line < 5; line++)
        titles.push((await codeActions(s, uri, 2, line)).map((a) => a.title));
      return titles;
    };
    expect(await everyLine()).toEqual([[], [], [], [], []]);
    await renameAtDeclaration(s, uri);
    // During the pause: nothing remembered yet, nothing asked.
    expect(await everyLine()).toEqual([[], [], [], [], []]);
    await s.until(() => editRequests(s).length === 1, "the pause's request");
    // A request without triggerKind returns once that request is answered (and asks nothing).
    expect(await codeActions(s, uri, undefined, 3)).toHaveLength(1);
    const replace = 'Next edit: replace "total" with "sum"';
    expect(await everyLine()).toEqual([[], [], [replace], [replace], []]);
    expect(editRequests(s)).toHaveLength(1);
  });
});

describe("next edits' failures", () => {
  it("are told once, as next edits', naming the key's variable and never showing the key", async () => {
    const s = await start({
      sim: { apiKey: "sk-the-sim-wants-another-key" },
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "w" }],
      initializationOptions: { debounceMs: 0, nextEdit: { enabled: true, debounceMs: 0 } },
    });
    const uri = pathToFileURL(join(root, "rejected.ts")).href;
    await s.open(uri, AVERAGE);
    const nes = new CopilotLsp(s);
    await s.replace(uri, range(1, 6, 1, 11), "sum");
    expect(await nes.requestNes(uri, { line: 1, character: 9 })).toEqual([]);
    await s.until(
      () => shown(s).some((m) => m.startsWith("infill (next edits): DeepSeek rejected the API key")),
      "the notice",
    );
    await s.type(uri, { line: 1, character: 9 }, "s");
    expect(await nes.requestNes(uri, { line: 1, character: 10 })).toEqual([]);
    const told = shown(s).filter((m) => m.includes("rejected the API key"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("DEEPSEEK_API_KEY");
    expect(JSON.stringify(s.notifications)).not.toContain("sk-test-0123456789abcdef");
  });
});
