// Usage, cost and acceptance through the built server over stdio, against @infill/sim: what `infill.status`
// counts after a scripted session, what the usage log holds, and what `infill usage` prints from it.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import {
  type CompletionRequest,
  emptyTotals,
  estimateCost,
  FimClient,
  localDay,
  PRICES,
  readUsageLog,
  summarizeUsage,
  type Usage,
  type UsageTotals,
} from "@infill/core";
import { startSim } from "@infill/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command, InlineCompletionItem } from "vscode-languageserver-protocol";
import { codePoints } from "../../src/completion/type-through.js";
import { StatusSchema } from "../../src/stats/status-schema.js";
import { CancellationTokenSource, type Session, sessions } from "../support/session.js";
import { BUILT_CLI, eventually, requireBuilt, status } from "../support/status.js";

const CLI = BUILT_CLI;
const KEY = "sk-usage-test-0123456789";
const start = sessions();

let scratch: string;
beforeAll(() => {
  requireBuilt();
  scratch = mkdtempSync(join(tmpdir(), "infill-usage-session-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The figures of the usage log that `status` also has, but the cost (a float: compared apart). */
const LOGGED = Object.keys(emptyTotals()).filter(
  (field) => !["cost", "acceptedCharsSq", "retention"].includes(field),
) as Array<Exclude<keyof UsageTotals, "retention" | "acceptedCharsSq">>;
const logged = (figures: Pick<UsageTotals, (typeof LOGGED)[number]>) =>
  Object.fromEntries(LOGGED.map((field) => [field, figures[field]]));

// The sim continues `const beta = co` with the rest of the `alpha` line.
const SOURCE = `function compute(n, side) {
  return side + ":" + n;
}

const alpha = compute(41, "left");
const beta = co

const delta = 1;

const epsilon = 2;

export const pair = [alpha, beta];
`;
const BETA = { line: 5, character: "const beta = co".length };

describe("usage through the built server", () => {
  it("counts a scripted session as it happened: shown, taken by the command, typed through, superseded, cancelled; the cost is the sim's usage at the price table's prices; the log and infill usage agree", async () => {
    const root = join(scratch, "project");
    const state = join(scratch, "state");
    const rootUri = pathToFileURL(root).href;
    const uri = `${rootUri}/sample.js`;
    // A slow sim, so that requests are still running when they are superseded or cancelled.
    const s = await start({
      built: true,
      sim: { latencyMs: 150 },
      env: { DEEPSEEK_API_KEY: KEY, XDG_STATE_HOME: state },
      initializationOptions: { debounceMs: 0 },
      workspaceFolders: [{ uri: rootUri, name: "project" }],
    });
    await s.open(uri, SOURCE, "javascript");
    // The suggestions shown: the ids of the answers' items.
    const ids = new Set<string>();
    const ask = async (at: {
      line: number;
      character: number;
    }): Promise<InlineCompletionItem | undefined> => {
      const item = (await s.inline(uri, at)).items[0];
      const args = (item?.command as Command | undefined)?.arguments as [{ id: string }] | undefined;
      if (args) ids.add(args[0].id);
      return item;
    };
    const first = async (at: { line: number; character: number }): Promise<InlineCompletionItem> => {
      const item = await ask(at);
      if (!item) throw new Error(`no suggestion at ${JSON.stringify(at)}`);
      return item;
    };

    // 1. Shown, then taken by the item's command, as a client runs it when the user accepts.
    const beta = await first(BETA);
    const betaText = beta.insertText as string;
    expect(beta.command).toMatchObject({
      command: "infill.accepted",
      arguments: [{ chars: codePoints(betaText) }],
    });
    let at = await s.type(uri, BETA, betaText);
    expect(await s.client.sendRequest("workspace/executeCommand", beta.command)).toBeNull();

    // 2. Shown on a new line, then typed through: two characters (a request answers the rest from memory, the
    // same suggestion), then all of it.
    at = await s.type(uri, at, "\nconst gamma = co");
    const gamma = await first(at);
    const gammaText = gamma.insertText as string;
    const sent = s.sim.requests.length;
    at = await s.type(uri, at, gammaText.slice(0, 2));
    const rest = await first(at);
    expect(rest.insertText).toBe(gammaText.slice(2));
    expect(s.sim.requests).toHaveLength(sent);
    at = await s.type(uri, at, gammaText.slice(2));
    await ask(at);

    // 3. Superseded: an edit above the cursor while the request runs.
    const before = s.sim.requests.length;
    const superseded = s.inline(uri, { line: 8, character: "const delta = 1;".length });
    await eventually(
      "the sim to get the request",
      async () => s.sim.requests.length,
      (n) => n > before,
    );
    await s.type(uri, { line: 0, character: 0 }, "/* edited */ ");
    expect((await superseded).items).toEqual([]);

    // 4. Cancelled: the editor cancels the request and asks nothing else.
    const cancelledAt = s.sim.requests.length;
    const token = new CancellationTokenSource();
    const cancelled = s
      .inline(uri, { line: 10, character: "const epsilon = 2;".length }, token)
      .catch(() => ({
        items: [],
      }));
    await eventually(
      "the sim to get the request",
      async () => s.sim.requests.length,
      (n) => n > cancelledAt,
    );
    token.cancel();
    await cancelled;

    // Every upstream request is counted once it ended.
    const figures = await eventually(
      "every request to be counted",
      async () => (await status(s)).total,
      (total) => total.requests === s.sim.requests.length,
    );

    // What the sim billed: the same bodies sent again, in order, to a fresh sim (the same key, so the same prompt
    // cache) give the same usage; the aborted requests never reported theirs.
    const fresh = await startSim();
    const billed = { cacheHit: 0, cacheMiss: 0, completion: 0 };
    try {
      const client = new FimClient({ baseURL: fresh.url, apiKey: KEY });
      for (const request of s.sim.requests) {
        const usage = await usageOf(client, request.body as CompletionRequest);
        if (request.aborted) continue;
        billed.cacheHit += usage.prompt_cache_hit_tokens ?? 0;
        billed.cacheMiss += usage.prompt_cache_miss_tokens ?? 0;
        billed.completion += usage.completion_tokens;
      }
    } finally {
      await fresh.close();
    }
    const aborted = s.sim.requests.filter((r) => r.aborted).length;
    expect(aborted).toBe(2);
    expect(figures).toMatchObject({
      requests: s.sim.requests.length,
      superseded: 1,
      cancelled: 1,
      failed: 0,
      unreported: aborted,
      cacheHitTokens: billed.cacheHit,
      cacheMissTokens: billed.cacheMiss,
      completionTokens: billed.completion,
      unpricedTokens: 0,
      shown: ids.size,
      accepted: 2,
      acceptedPartly: 0,
      acceptedChars: codePoints(betaText) + codePoints(gammaText),
    });
    expect(billed.cacheHit + billed.cacheMiss).toBeGreaterThan(0);
    expect(figures.cost).toBeCloseTo(estimateCost(billed, PRICES["deepseek-v4-flash"]!), 15);
    expect(figures.acceptanceRate).toBeCloseTo(2 / ids.size, 12);
    expect(figures.latency.endToEnd.samples).toBe(ids.size);
    const full = await status(s);
    expect(full.workspaces).toEqual([{ folder: rootUri, figures: full.total }]);
    expect(full.models.map((m) => m.model)).toEqual(["deepseek-v4-flash"]);

    // The usage log holds the same figures (the status wrote them), and `infill usage` prints them.
    const month = localDay().slice(0, 7);
    expect(full.log).toEqual({
      enabled: true,
      file: join(state, "infill", "usage", `${month}.jsonl`),
      error: null,
    });
    const log = await readUsageLog(full.log.file!);
    const summary = summarizeUsage(log.records, month, localDay());
    expect(logged(summary.total)).toEqual(logged(full.total));
    expect(summary.total.cost).toBeCloseTo(full.total.cost, 12);
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "usage", "--json"], {
      env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
    });
    const cli = JSON.parse(stdout) as { total: UsageTotals; today: { figures: UsageTotals } };
    expect(logged(cli.total)).toEqual(logged(full.total));
    expect(logged(cli.today.figures)).toEqual(logged(full.total));
    expect(cli.total.cost).toBeCloseTo(full.total.cost, 12);
  }, 60_000);

  it("shows a one-line summary when asked without arguments (Helix's :lsp-workspace-command)", async () => {
    const s = await start({ built: true, env: { XDG_STATE_HOME: join(scratch, "state-message") } });
    const at = await s.open("file:///m/add.js", "const alpha = 1;\nconst beta = al", "javascript");
    expect(at).toBeDefined();
    await s.inline("file:///m/add.js", { line: 1, character: 15 });
    // Shown once it stayed on screen a moment (this client does not say when it shows one).
    await eventually(
      "the suggestion counted shown",
      () => status(s),
      (st) => st.total.shown === 1,
    );
    const answer = StatusSchema.parse(
      await s.client.sendRequest("workspace/executeCommand", { command: "infill.status" }),
    );
    await s.until(() => s.messages("window/showMessage").length > 0, "the status message");
    const { params } = s.messages("window/showMessage")[0]!;
    expect(params).toMatchObject({ type: 3 });
    expect((params as { message: string }).message).toMatch(
      new RegExp(
        `^infill: ${answer.total.requests} requests?, [\\d,]+ prompt tokens \\(\\d+ % cached\\), est\\. \\$[\\d.]+, taken ${answer.total.accepted} of ${answer.total.shown} \\(\\d+ %\\), p50 \\d+ ms$`,
      ),
    );
  });

  it("refuses infill.accepted without its arguments, naming the field, and an unknown command", async () => {
    const s = await start({ built: true });
    await expect(
      s.client.sendRequest("workspace/executeCommand", {
        command: "infill.accepted",
        arguments: [{ id: "s1" }],
      }),
    ).rejects.toThrow(/infill.accepted: chars: /);
    await expect(
      s.client.sendRequest("workspace/executeCommand", { command: "infill.nope" }),
    ).rejects.toThrow(/no command "infill.nope"/);
    expect(s.initializeResult.capabilities.executeCommandProvider).toEqual({
      commands: ["infill.accepted", "infill.shown", "infill.status", "infill.nextEditAccepted"],
    });
    await expect(
      s.client.sendRequest("workspace/executeCommand", { command: "infill.shown", arguments: [{}] }),
    ).rejects.toThrow(/infill.shown: id: /);
  });
});

describe("the usage log with several servers", () => {
  /** A built server on `state`, after `n` completions on lines of its own. */
  async function busy(state: string, n: number): Promise<Session> {
    const s = await start({
      built: true,
      env: { XDG_STATE_HOME: state },
      initializationOptions: { debounceMs: 0 },
    });
    const text = Array.from({ length: n }, (_, i) => `const v${i} = ${i};\nconst w${i} = v`).join("\n");
    await s.open("file:///several/a.js", text, "javascript");
    for (let i = 0; i < n; i++) await s.inline("file:///several/a.js", { line: 2 * i + 1, character: 15 });
    return s;
  }

  it("keeps every server's totals when they write at once as they exit", async () => {
    const state = join(scratch, "state-several");
    const servers = await Promise.all([busy(state, 3), busy(state, 4), busy(state, 5)]);
    const sent = servers.map((s) => s.sim.requests.length);
    // The editors go away at once: each server writes its totals as it exits.
    await Promise.all(servers.map((s) => s.close()));
    const { records, skipped } = await readUsageLog(
      join(state, "infill", "usage", `${localDay().slice(0, 7)}.jsonl`),
    );
    expect(skipped).toBe(0);
    expect(records).toHaveLength(3);
    expect(records.map((r) => r.requests).sort()).toEqual([...sent].sort());
    expect(summarizeUsage(records, localDay().slice(0, 7), localDay()).total.requests).toBe(
      sent.reduce((a, b) => a + b, 0),
    );
  }, 60_000);

  it("writes its totals when stopped with SIGTERM, and still dies of the signal", async () => {
    const state = join(scratch, "state-sigterm");
    const s = await busy(state, 2);
    const child = s.server.child!;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    expect(await exited).toEqual([null, "SIGTERM"]);
    const { records } = await readUsageLog(join(state, "infill", "usage", `${localDay().slice(0, 7)}.jsonl`));
    expect(records.map((r) => r.requests)).toEqual([s.sim.requests.length]);
  });
});

/** The usage the sim reports for `body`, asked the way the server asked it (single lines are streamed). */
async function usageOf(client: FimClient, body: CompletionRequest): Promise<Usage> {
  if (body.stream !== true) return (await client.complete(body)).usage;
  let usage: Usage | null | undefined;
  for await (const chunk of client.stream(body)) usage = chunk.usage ?? usage;
  if (!usage) throw new Error("the stream ended without usage");
  return usage;
}
