import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ADD_TS, type Session, sessions } from "../support/session.js";

const KEY = "sk-wrong-key-0123456789abcdef";

const start = sessions();

const shown = (s: Session) =>
  s.messages("window/showMessage").map((m) => (m.params as { message: string }).message);

/**
 * Ask a few times at the cursor, as an editor would on each keystroke (`automatic`), or as a user who presses the
 * completion key again and again (`invoked`: it goes upstream through a backoff).
 */
async function askRepeatedly(
  s: Session,
  uri: string,
  times: number,
  trigger: "automatic" | "invoked" = "automatic",
) {
  const at = await s.open(uri, ADD_TS);
  const answers = [];
  for (let i = 0; i < times; i++) answers.push(await s.inline(uri, at, undefined, trigger));
  return answers;
}

describe("no API key", () => {
  it("starts, answers every request empty, and says once what to set", async () => {
    const s = await start({ env: { DEEPSEEK_API_KEY: "" } });
    const answers = await askRepeatedly(s, "file:///nokey.ts", 4);
    for (const answer of answers) expect(answer.items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toContain("DEEPSEEK_API_KEY");
    expect(s.sim.requests).toHaveLength(0);
  });

  it("uses no key with the embedded sim, even when the environment has a bad one", async () => {
    const s = await start({
      env: { DEEPSEEK_API_KEY: "not a valid\nkey" },
      initializationOptions: { provider: "sim", debounceMs: 0 },
    });
    const [answer] = await askRepeatedly(s, "file:///embedded-bad-key.ts", 1);
    expect(answer!.items[0]?.insertText).toBe("return a + b;");
  });

  it("works with no key when the provider is the embedded sim", async () => {
    const s = await start({
      env: { DEEPSEEK_API_KEY: "" },
      initializationOptions: { provider: "sim", debounceMs: 0 },
    });
    const [answer] = await askRepeatedly(s, "file:///embedded.ts", 1);
    expect(answer!.items[0]?.insertText).toBe("return a + b;");
    expect(shown(s)).toEqual([]);
  });
});

describe("upstream failures are told once and backed off", () => {
  it("a rejected key: one error message, no more upstream requests, the key never sent back", async () => {
    const s = await start({ sim: { apiKey: "sk-right-key-000000000000" }, env: { DEEPSEEK_API_KEY: KEY } });
    const answers = await askRepeatedly(s, "file:///401.ts", 5);
    for (const answer of answers) expect(answer.items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toMatch(/API key/);
    expect(s.sim.requests).toHaveLength(1);
    expect(inspect([s.notifications, s.requests], { depth: 10 })).not.toContain(KEY);
    expect(JSON.stringify([s.notifications, s.requests])).not.toContain(KEY.slice(3));
  });

  it("an empty balance: one message", async () => {
    const s = await start({ sim: { faults: [{ type: "status", status: 402, times: 10 }] } });
    await askRepeatedly(s, "file:///402.ts", 3);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toMatch(/balance/);
    expect(s.sim.requests).toHaveLength(1);
  });

  it("an outage: backoff instead of a request per keystroke, and one warning once it persists", async () => {
    const s = await start({ sim: { faults: [{ type: "status", status: 503, times: 50 }] } });
    await askRepeatedly(s, "file:///503.ts", 6);
    // One request plus the client's single quick retry; the rest are held back by the backoff. One failure is a
    // blip: nothing shown yet.
    expect(s.sim.requests.length).toBeLessThanOrEqual(2);
    expect(shown(s)).toEqual([]);
    // The user asks on (invoked requests go through the backoff): the third failure in a row is an outage.
    await askRepeatedly(s, "file:///503.ts", 4, "invoked");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toMatch(/unavailable/);
  });

  it("rate limiting: one warning once it persists", async () => {
    const s = await start({
      sim: { faults: [{ type: "status", status: 429, retryAfter: "30", times: 50 }] },
    });
    await askRepeatedly(s, "file:///429.ts", 4);
    expect(s.sim.requests.length).toBeLessThanOrEqual(2);
    await askRepeatedly(s, "file:///429.ts", 3, "invoked");
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toMatch(/rate limit/);
  });
});

describe("a client configuration the HTTP client refuses", () => {
  it("is told once, sends nothing, and the server still shuts down cleanly", async () => {
    const s = await start({
      initializationOptions: { debounceMs: 0, baseUrl: "http://proxy.example.com/beta" },
    });
    const answers = await askRepeatedly(s, "file:///insecure.ts", 3);
    for (const answer of answers) expect(answer.items).toEqual([]);
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)).toHaveLength(1);
    expect(shown(s)[0]).toMatch(/http/);
    expect(s.sim.requests).toHaveLength(0);
    await expect(s.client.sendRequest("shutdown")).resolves.toBeNull();
  });
});

describe("settings", () => {
  it("reports invalid initializationOptions once and keeps the defaults", async () => {
    const s = await start({ initializationOptions: { debounceMs: -5, colour: "blue" } });
    await s.until(() => shown(s).length > 0, "a message");
    expect(shown(s)[0]).toMatch(/debounceMs|colour/);
    const [answer] = await askRepeatedly(s, "file:///defaults.ts", 1);
    expect(answer!.items[0]?.insertText).toBe("return a + b;");
  });

  it("re-reads workspace/configuration on didChangeConfiguration", async () => {
    const s = await start({
      capabilities: { workspace: { configuration: true } },
      configuration: { debounceMs: 0, logLevel: "debug" },
    });
    const uri = "file:///cfg.ts";
    const at = await s.open(uri, ADD_TS);
    expect((await s.inline(uri, at)).items).toHaveLength(1);
    s.configuration = { enable: false, logLevel: "debug" };
    await s.client.sendNotification("workspace/didChangeConfiguration", { settings: null });
    const applied = () =>
      s
        .messages("window/logMessage")
        .some((m) => (m.params as { message: string }).message.includes('"enable":false'));
    await s.until(applied, "the new settings to apply");
    expect((await s.inline(uri, at)).items).toEqual([]);
  });

  it("turns completions off per language", async () => {
    const s = await start({ initializationOptions: { debounceMs: 0, languages: { markdown: false } } });
    const at = await s.open("file:///notes.md", "# Notes\n\n- one\n- two\n- │\n", "markdown");
    expect((await s.inline("file:///notes.md", at)).items).toEqual([]);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("status", () => {
  it("reports $/progress while a slow completion is in flight", async () => {
    const s = await start({ sim: { latencyMs: 400 }, capabilities: { window: { workDoneProgress: true } } });
    await askRepeatedly(s, "file:///progress.ts", 1);
    await s.until(
      () =>
        s.messages("$/progress").some((m) => (m.params as { value: { kind: string } }).value.kind === "end"),
      "the end of the progress",
    );
    const kinds = s.messages("$/progress").map((m) => (m.params as { value: { kind: string } }).value.kind);
    expect(kinds).toEqual(["begin", "end"]);
  });

  it("logs at the configured verbosity", async () => {
    const quiet = await start({ initializationOptions: { debounceMs: 0, logLevel: "off" } });
    await askRepeatedly(quiet, "file:///quiet.ts", 1);
    expect(quiet.messages("window/logMessage")).toEqual([]);
    const loud = await start({ initializationOptions: { debounceMs: 0, logLevel: "debug" } });
    await askRepeatedly(loud, "file:///loud.ts", 1);
    await loud.until(() => loud.messages("window/logMessage").length > 0, "a log line");
  });
});
