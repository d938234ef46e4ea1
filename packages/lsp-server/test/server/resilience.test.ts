// Resilience and latency through the real server and @infill/sim: invoked requests, errors that back off or
// block, the concurrency cap, a single-line request in flight, the adaptive debounce, the warm connection.
import { describe, expect, it } from "vitest";
import { ADD_TS, CancellationTokenSource, type Session, sessions } from "../support/session.js";

const start = sessions();

const shown = (s: Session) =>
  s.messages("window/showMessage").map((m) => m.params as { type: number; message: string });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("an invoked request always gets a real try", () => {
  it("goes upstream through an outage's backoff, where typing does not", async () => {
    const s = await start({ sim: { faults: [{ type: "status", status: 503, times: 2 }] } });
    const uri = "file:///invoked.ts";
    const at = await s.open(uri, ADD_TS);
    // 503, and 503 again on the client's one retry: backed off for a second.
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(2);
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(2);
    const invoked = await s.inline(uri, at, undefined, "invoked");
    expect(invoked.items[0]?.insertText).toBe("return a + b;");
    expect(s.sim.requests).toHaveLength(3);
  });

  it("skips the debounce", async () => {
    const s = await start({ initializationOptions: { debounceMs: 5000, metrics: true } });
    const uri = "file:///now.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at, undefined, "invoked")).items).toHaveLength(1);
    // The server's own account of its wait: none.
    await s.until(() => s.messages("$/infill/metrics").length > 0, "metrics");
    expect(s.messages("$/infill/metrics")[0]?.params).toMatchObject({ debounceMs: 0 });
  });

  it("is held back without a key, and after the key was rejected", async () => {
    const none = await start({ env: { DEEPSEEK_API_KEY: "" } });
    const at = await none.open("file:///nokey.ts", ADD_TS);
    expect((await none.inline("file:///nokey.ts", at, undefined, "invoked")).items).toEqual([]);
    expect(none.sim.requests).toHaveLength(0);

    const rejected = await start({ sim: { apiKey: "sk-the-right-one-0000" } });
    const here = await rejected.open("file:///401.ts", ADD_TS);
    await rejected.inline("file:///401.ts", here);
    expect(rejected.sim.requests).toHaveLength(1);
    expect((await rejected.inline("file:///401.ts", here, undefined, "invoked")).items).toEqual([]);
    expect(rejected.sim.requests).toHaveLength(1);
  });
});

describe("errors that may belong to one request do not block the session", () => {
  it("a 400 is backed off, told once as a warning when it persists; a request that succeeds clears it", async () => {
    const s = await start({ sim: { faults: [{ type: "status", status: 400, times: 3 }] } });
    const uri = "file:///400.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(1);
    expect((await s.inline(uri, at, undefined, "invoked")).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(2);
    // Two in a row may still be this request's own problem: nothing shown; the third is told.
    expect(shown(s)).toEqual([]);
    expect((await s.inline(uri, at, undefined, "invoked")).items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toEqual([
      {
        type: 2,
        message: expect.stringMatching(/refused a request \(400 .*\)\. It may be this request only/),
      },
    ]);
    // The faults are spent: the next invoked request succeeds, and typing goes upstream again.
    expect((await s.inline(uri, at, undefined, "invoked")).items).toHaveLength(1);
    const typed = await s.type(uri, at, "x");
    await s.inline(uri, typed);
    expect(s.sim.requests).toHaveLength(5);
    expect(shown(s)).toHaveLength(1);
  });

  /** Change the workspace settings and wait until the server applied them (it logs them at debug level). */
  async function reconfigure(s: Session, settings: Record<string, unknown>, applied: string) {
    s.configuration = { debounceMs: 0, logLevel: "debug", ...settings };
    await s.client.sendNotification("workspace/didChangeConfiguration", { settings: null });
    await s.until(
      () =>
        s
          .messages("window/logMessage")
          .some((m) => (m.params as { message: string }).message.includes(applied)),
      "the new settings to apply",
    );
  }

  it("an unknown model blocks until the settings change, and says which setting", async () => {
    const s = await start({ capabilities: { workspace: { configuration: true } } });
    await reconfigure(s, { model: "deepseek-coder" }, '"model":"deepseek-coder"');
    const uri = "file:///model.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at)).items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toEqual({
      type: 1,
      message: expect.stringMatching(
        /does not know "deepseek-coder" \(422 Model Not Exist.*\)\. Check the model setting/,
      ),
    });
    expect((await s.inline(uri, at, undefined, "invoked")).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(1);
    await reconfigure(s, { model: "deepseek-v4-pro" }, '"model":"deepseek-v4-pro"');
    expect((await s.inline(uri, at)).items).toHaveLength(1);
    expect(s.sim.requests).toHaveLength(2);
  });

  it("a base URL that serves no FIM blocks, and says which setting", async () => {
    const s = await start({ capabilities: { workspace: { configuration: true } } });
    const v2 = s.sim.url.replace(/\/beta$/, "/v2");
    await reconfigure(s, { baseUrl: v2 }, v2);
    const uri = "file:///404.ts";
    const at = await s.open(uri, ADD_TS);
    await s.inline(uri, at);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]?.message).toMatch(
      /base URL serves no FIM completions \(404 .*\)\. Check the baseUrl setting/,
    );
    await s.inline(uri, at, undefined, "invoked");
    // The sim counts /beta/completions only: nothing reached it.
    expect(s.sim.requests).toHaveLength(0);
  });

  it("an empty balance is told once, and an invoked request checks it again", async () => {
    const s = await start({ sim: { faults: [{ type: "status", status: 402 }] } });
    const uri = "file:///402.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect((await s.inline(uri, at)).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(1);
    expect((await s.inline(uri, at, undefined, "invoked")).items).toHaveLength(1);
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("a global cap on concurrent upstream requests", () => {
  it("keeps 50 documents typing at once within maxConcurrent: no 429 from an account limit of 4", async () => {
    const s = await start({ sim: { latencyMs: 100, concurrencyLimit: 4 } });
    const docs = Array.from({ length: 50 }, (_, i) => `file:///many-${i}.ts`);
    const at = await Promise.all(docs.map((uri) => s.open(uri, ADD_TS)));
    const answers = await Promise.all(docs.map((uri, i) => s.inline(uri, at[i]!)));
    expect(answers.every((a) => a.items[0]?.insertText === "return a + b;")).toBe(true);
    expect(s.sim.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(s.sim.peakConcurrency).toBe(4);
  });

  it("serves the newest waiting request first; one superseded or cancelled while waiting never goes", async () => {
    const s = await start({
      sim: { latencyMs: 1_500 },
      initializationOptions: { debounceMs: 0, maxConcurrent: 1, logLevel: "debug" },
    });
    const queued = () =>
      s
        .messages("window/logMessage")
        .filter((m) => (m.params as { message: string }).message.includes("waiting for an upstream slot"))
        .length;
    const open = async (name: string) => {
      const uri = `file:///${name}.ts`;
      return { uri, at: await s.open(uri, ADD_TS.replace("sub", name)) };
    };
    const [a, b, c, d] = await Promise.all(["alpha", "bravo", "charlie", "delta"].map(open));
    const first = s.inline(a!.uri, a!.at);
    await s.until(() => s.sim.requests.length === 1, "the first request");
    const superseded = s.inline(b!.uri, b!.at);
    const token = new CancellationTokenSource();
    const cancelled = s.inline(c!.uri, c!.at, token);
    const waiting = s.inline(d!.uri, d!.at);
    // The three reach the queue, well before the first answer (1.5 s) frees the slot.
    await s.until(() => queued() === 3, "three requests waiting for the slot");
    const typed = await s.type(b!.uri, b!.at, "r");
    const newest = s.inline(b!.uri, typed);
    token.cancel();
    expect((await superseded).items).toEqual([]);
    expect((await cancelled).items).toEqual([]);
    expect((await first).items).toHaveLength(1);
    await Promise.all([newest, waiting]);
    const order = s.sim.requests.map(
      (r) =>
        /function (\w+)\(a: number, b: number\): number \{\n {2}\S*$/.exec(
          (r.body as { prompt: string }).prompt,
        )?.[1],
    );
    expect(order).toEqual(["alpha", "bravo", "delta"]);
  });
});

describe("a single-line request in flight when the user types on", () => {
  const LINE = "function add(a, b) {\n  const s = a + b;\n  return s;\n}\nfunction sub(a, b) {\n  │\n}\n";

  it("is streamed, stops at the line break on the server, and serves the typing that agrees with it", async () => {
    const s = await start({
      sim: { latencyMs: 150, tokenMs: 20 },
      initializationOptions: { debounceMs: 0, lineMode: "single-line" },
    });
    const uri = "file:///follow.ts";
    const at = await s.open(uri, LINE);
    const first = s.inline(uri, at);
    await s.until(() => s.sim.requests.length === 1, "the request");
    expect(s.sim.requests[0]!.body).toMatchObject({ stream: true, stop: ["\n"] });
    // Typed before its first token: followed, and served once its text agrees.
    const next = await s.type(uri, at, "co");
    const second = await s.inline(uri, next);
    expect((await first).items).toEqual([]);
    expect(second.items[0]?.insertText).toBe("nst s = a + b;");
    expect(s.sim.requests).toHaveLength(1);
  });

  it("is dropped as soon as its first text disagrees with the typing", async () => {
    const s = await start({
      sim: { latencyMs: 150, tokenMs: 100 },
      initializationOptions: { debounceMs: 0, lineMode: "single-line" },
    });
    const uri = "file:///drop.ts";
    const at = await s.open(uri, LINE);
    void s.inline(uri, at);
    await s.until(() => s.sim.requests.length === 1, "the request");
    const next = await s.type(uri, at, "zz");
    await s.inline(uri, next);
    // Its line (about ten tokens of 100 ms each) had not come to an end: it was cut on its first text.
    await s.sim.requests[0]!.closed;
    expect(s.sim.requests[0]!.aborted).toBe(true);
    expect(s.sim.requests).toHaveLength(2);
  });
});

describe("the adaptive debounce", () => {
  // The exact figures (one request per burst, 36 ms after the last key) are on a fake clock in engine.test.ts; here,
  // on a machine shared with other test runs, the wiring through the server.
  it("learns the cadence through the server: the wait drops below debounceMs, bursts cost fewer requests than keys", async () => {
    const s = await start({
      // An upper bound far above the typing's gaps, even on a loaded machine: every gap counts as cadence.
      initializationOptions: { debounceMs: 1_000, metrics: true, context: { enabled: false } },
    });
    const uri = "file:///cadence.ts";
    await s.open(uri, "\n\n\n\n\n");
    const words = ["qzjxkv", "wyqkzj", "jxwvqy", "kvzyjw"];
    for (const [line, word] of words.entries()) {
      let at = { line, character: 0 };
      const pending = [];
      for (const ch of word) {
        at = await s.type(uri, at, ch);
        pending.push(s.inline(uri, at));
        await pause(35);
      }
      await Promise.all(pending);
      await pause(200);
    }
    // Until five gaps are known the wait is the upper bound: the first word's first keys are superseded.
    expect(s.sim.requests.length).toBeLessThan(words.join("").length);
    const waits = s
      .messages("$/infill/metrics")
      .map((m) => (m.params as { debounceMs: number | null }).debounceMs)
      .filter((wait) => wait !== null);
    expect(waits.at(-1)).toBeGreaterThanOrEqual(20);
    expect(waits.at(-1)).toBeLessThan(1_000);
  });

  it("waits debounceMs when told not to adapt", async () => {
    const s = await start({
      initializationOptions: { debounceMs: 60, adaptiveDebounce: false, metrics: true },
    });
    const uri = "file:///fixed.ts";
    let at = await s.open(uri, ADD_TS);
    for (const ch of "xyzw") {
      at = await s.type(uri, at, ch);
      await s.inline(uri, at);
    }
    const waits = s
      .messages("$/infill/metrics")
      .map((m) => (m.params as { debounceMs: number | null }).debounceMs);
    expect(waits.filter((w) => w !== null).every((w) => w === 60)).toBe(true);
  });
});

describe("a warm connection", () => {
  it("is opened after initialize, so the first completion does not pay the connection's set-up", async () => {
    const SET_UP_MS = 400;
    const warm = await start({ sim: { connectDelayMs: SET_UP_MS } });
    const cold = await start({
      sim: { connectDelayMs: SET_UP_MS },
      initializationOptions: { debounceMs: 0, preconnect: false },
    });
    // Right after initialize, before any completion, the warm server has opened its connection.
    await warm.until(() => warm.sim.connectionsAccepted === 1, "the connection opened ahead");
    expect(cold.sim.connectionsAccepted).toBe(0);
    const time = async (s: Session) => {
      const at = await s.open("file:///first.ts", ADD_TS);
      const t0 = performance.now();
      expect((await s.inline("file:///first.ts", at)).items).toHaveLength(1);
      return performance.now() - t0;
    };
    // The cold one pays the set-up on its first completion; the warm one sends it on the connection it opened
    // (how much time that saves is the bench's to measure).
    expect(await time(cold)).toBeGreaterThanOrEqual(SET_UP_MS);
    await time(warm);
    expect(warm.sim.connectionsAccepted).toBe(1);
  });
});
