// What becomes of suggestions, through the built server over stdio against @infill/sim: accepts inferred from the
// edit (a popup item applied without its command), a suggestion counted shown by the client's word, what is kept of
// what was taken at short retention horizons, the context.holdout arms, and what `infill usage --by` prints of it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { localDay } from "@infill/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletionItem, Position, TextEdit } from "vscode-languageserver-protocol";
import { heldOut } from "../../src/completion/holdout.js";
import type { Status } from "../../src/stats/status-schema.js";
import { type Session, sessions } from "../support/session.js";
import { BUILT_CLI as CLI, eventually, requireBuilt, status } from "../support/status.js";

const start = sessions();
const run = promisify(execFile);

let scratch: string;
beforeAll(() => {
  requireBuilt();
  scratch = mkdtempSync(join(tmpdir(), "infill-usage-outcomes-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Ask for the status until `check` holds. */
const statusWhen = (s: Session, what: string, check: (value: Status) => boolean) =>
  eventually(what, () => status(s), check);

// The sim continues `… = comp` with the rest of the `alpha` line: `ute(41, "left");`.
const SOURCE = `function compute(n, side) {
  return side + ":" + n;
}

const alpha = compute(41, "left");
const beta = comp
`;
const BETA: Position = { line: 5, character: "const beta = comp".length };
const TAKEN = 'ute(41, "left");';

/** Take the popup's first item as Helix and Eglot do: apply its edit, and run no command. */
async function takeFromMenu(s: Session, uri: string, at: Position): Promise<TextEdit> {
  const list = await s.completion(uri, at);
  const item: CompletionItem | undefined = list.items[0];
  if (!item?.textEdit || !("range" in item.textEdit)) throw new Error(`no item at ${JSON.stringify(at)}`);
  await s.replace(uri, item.textEdit.range, item.textEdit.newText);
  return item.textEdit;
}

/** Where an edit's new text ends. */
function endOf(edit: TextEdit): Position {
  return { line: edit.range.start.line, character: edit.range.start.character + edit.newText.length };
}

describe("what becomes of suggestions, through the built server", () => {
  it("counts a menu item taken without its command, and tells a kept one from a deleted one at the last horizon", async () => {
    const uri = "file:///outcomes/sample.js";
    const s = await start({
      built: true,
      env: { XDG_STATE_HOME: join(scratch, "state-menu") },
      initializationOptions: { debounceMs: 0, usage: { retentionChecks: [0.2, 2] } },
    });
    await s.open(uri, SOURCE, "javascript");

    // Kept: beta's line.
    const kept = await takeFromMenu(s, uri, BETA);
    expect(kept.newText).toBe(`comp${TAKEN}`);
    // Deleted: gamma's line, taken and removed at once.
    const lineEnd = endOf(kept);
    const gammaAt = await s.type(uri, lineEnd, "\nconst gamma = comp");
    const deleted = await takeFromMenu(s, uri, gammaAt);
    await s.replace(uri, { start: lineEnd, end: endOf(deleted) }, "");

    const figures = await statusWhen(s, "both checked at 2 s", (st) =>
      st.total.retained.some((r) => r.seconds === 2 && r.checkedChars === 2 * TAKEN.length),
    );
    expect(figures.total).toMatchObject({ shown: 2, accepted: 2, acceptedChars: 2 * TAKEN.length });
    expect(figures.total.retained.find((r) => r.seconds === 2)).toMatchObject({
      checkedChars: 2 * TAKEN.length,
      retainedChars: TAKEN.length,
      rate: 0.5,
    });
    expect(figures.retentionChecks).toEqual([0.2, 2]);
    expect(figures.shownBy).toBe("timer");
    expect(figures.languages.map((l) => [l.language, l.figures.accepted])).toEqual([["javascript", 2]]);
    // No command was run: the server inferred both from the edits.
    expect(s.requests.filter((r) => r.method === "workspace/executeCommand")).toEqual([]);
  }, 30_000);

  it("counts a suggestion shown when a client that says so reports it, and says how it counts", async () => {
    const uri = "file:///outcomes/shown.js";
    const s = await start({
      built: true,
      capabilities: { experimental: { infill: { reportsShown: true } } },
      initializationOptions: { debounceMs: 0 },
    });
    await s.open(uri, SOURCE, "javascript");
    const item = (await s.inline(uri, BETA)).items[0];
    if (!item?.command?.arguments) throw new Error("no suggestion, or no infill.accepted command on it");
    const [{ id }] = item.command.arguments as [{ id: string }];
    expect((await status(s)).total.shown).toBe(0);
    await s.client.sendRequest("workspace/executeCommand", { command: "infill.shown", arguments: [{ id }] });
    await s.client.sendRequest("workspace/executeCommand", { command: "infill.shown", arguments: [{ id }] });
    const figures = await status(s);
    expect(figures.shownBy).toBe("client");
    expect(figures.total).toMatchObject({ shown: 1, accepted: 0 });
  });
});

describe("context.holdout and infill usage --by, from a scripted session", () => {
  // Documents whose region 0 is held out at a share of 0.5 today (and tomorrow, should the test run over
  // midnight), and documents whose region 0 is not.
  const days = [localDay(), localDay(new Date(Date.now() + 86_400_000))];
  const candidates = Array.from({ length: 200 }, (_, i) => `file:///holdout/module${i}`);
  const pick = (held: boolean, ext: string) =>
    candidates
      .map((uri) => `${uri}.${ext}`)
      .filter((uri) => days.every((day) => heldOut(uri, 5, day, 0.5) === held))
      .slice(0, 2);

  it("sends the held-out share without context, counts each arm apart, and infill usage --by prints the same", async () => {
    const state = join(scratch, "state-holdout");
    const s = await start({
      built: true,
      env: { XDG_STATE_HOME: state },
      // No prefetch after each take: one request per take, so each arm counts what the script asked.
      initializationOptions: {
        debounceMs: 0,
        prefetch: false,
        context: { holdout: 0.5 },
        usage: { retentionChecks: [0.2] },
      },
    });
    const files = [
      ...pick(false, "js").map((uri) => ({ uri, language: "javascript", arm: "on" })),
      ...pick(true, "js").map((uri) => ({ uri, language: "javascript", arm: "holdout" })),
      ...pick(false, "py").map((uri) => ({ uri, language: "python", arm: "on" })),
      ...pick(true, "py").map((uri) => ({ uri, language: "python", arm: "holdout" })),
    ];
    expect(files).toHaveLength(8);
    for (const { uri, language } of files) {
      await s.open(uri, SOURCE, language);
      await takeFromMenu(s, uri, BETA);
    }
    const figures = await statusWhen(s, "every take checked", (st) =>
      st.total.retained.some((r) => r.checkedChars === files.length * TAKEN.length),
    );
    expect(figures.contextHoldout).toBe(0.5);
    expect(figures.contexts.map((c) => [c.context, c.figures.requests, c.figures.accepted])).toEqual([
      ["on", 4, 4],
      ["holdout", 4, 4],
    ]);
    expect(figures.languages.map((l) => [l.language, l.figures.requests])).toEqual([
      ["javascript", 4],
      ["python", 4],
    ]);

    const env = { PATH: process.env.PATH, XDG_STATE_HOME: state };
    const byContext = JSON.parse(
      (await run(process.execPath, [CLI, "usage", "--by", "context", "--json"], { env })).stdout,
    ) as {
      groups: Array<{
        label: string;
        figures: { requests: number; acceptedChars: number; retention: unknown };
      }>;
      contextEffect: { with: { requests: number }; heldOut: { requests: number } };
    };
    expect(byContext.groups.map((g) => [g.label, g.figures.requests, g.figures.acceptedChars])).toEqual([
      ["with context", 4, 4 * TAKEN.length],
      ["held out", 4, 4 * TAKEN.length],
    ]);
    expect(byContext.groups[0]!.figures.retention).toEqual({
      "0.2": {
        checkedChars: 4 * TAKEN.length,
        retainedChars: 4 * TAKEN.length,
        retainedCharsSq: 4 * TAKEN.length ** 2,
      },
    });
    expect([byContext.contextEffect.with.requests, byContext.contextEffect.heldOut.requests]).toEqual([4, 4]);

    const text = (await run(process.execPath, [CLI, "usage", "--by", "context"], { env })).stdout;
    expect(text).toMatch(/^with context +4 +\$[\d.]+ +4 +4 +100 % +64 +64 \(100 %\)$/m);
    expect(text).toMatch(/^held out +4 +\$[\d.]+ +4 +4 +100 % +64 +64 \(100 %\)$/m);
    expect(text).toMatch(/^requests +4 +4$/m);
    const byLanguage = (await run(process.execPath, [CLI, "usage", "--by", "language"], { env })).stdout;
    expect(byLanguage).toMatch(/^javascript +4 /m);
    expect(byLanguage).toMatch(/^python +4 /m);
  }, 30_000);

  it.each([
    [0, "on"],
    [1, "holdout"],
  ])(
    "with context.holdout %d, a request goes %s (the context block starts the prompt, or there is none)",
    async (holdout, arm) => {
      const rootUri = pathToFileURL(join(scratch, `holdout-project-${holdout}`)).href;
      const s = await start({
        built: true,
        workspaceFolders: [{ uri: rootUri, name: "p" }],
        initializationOptions: { debounceMs: 0, context: { holdout } },
      });
      // Another open document with code like the cursor's: repository context sends it as a similar snippet.
      await s.open(
        `${rootUri}/b.js`,
        "export function label(n, side) {\n  return compute(n, side);\n}\n",
        "javascript",
      );
      await s.open(`${rootUri}/a.js`, SOURCE, "javascript");
      await s.inline(`${rootUri}/a.js`, BETA);
      const last = s.sim.requests.at(-1);
      if (!last) throw new Error("no request reached the sim");
      const { prompt } = last.body as { prompt: string };
      expect(prompt.startsWith("function compute")).toBe(arm === "holdout");
      expect((await status(s)).contexts.map((c) => c.context)).toEqual([arm]);
    },
  );
});
