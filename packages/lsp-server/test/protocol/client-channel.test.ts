import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MessageType } from "vscode-languageserver";
import type { LogLevel } from "../../src/log/logger.js";
import { ClientChannel, type ClientConnection } from "../../src/protocol/client-channel.js";
import type { RequestCost } from "../../src/stats/request-cost.js";

function channel(options: { level?: LogLevel; progress?: boolean; failing?: boolean } = {}) {
  const sent: Array<[string, unknown]> = [];
  const progress: string[] = [];
  let created: (() => void) | undefined;
  const connection: ClientConnection = {
    sendNotification(method, params) {
      sent.push([method, params]);
      return options.failing ? Promise.reject(new Error("client gone")) : Promise.resolve();
    },
    window: {
      createWorkDoneProgress: () =>
        new Promise((resolve) => {
          created = () =>
            resolve({
              begin: (title: string) => progress.push(`begin ${title}`),
              done: () => progress.push("done"),
            });
        }),
    },
  };
  const c = new ClientChannel(connection, {
    logLevel: () => options.level ?? "warn",
    redact: (text) => text.replaceAll("sk-secret", "***"),
    capabilities: () => (options.progress ? { window: { workDoneProgress: true } } : {}),
    progressDelayMs: 150,
  });
  return { channel: c, sent, progress, create: () => created?.() };
}

describe("ClientChannel", () => {
  it("logs at the level set, redacted", () => {
    const { channel: c, sent } = channel({ level: "warn" });
    c.log.debug("not sent");
    c.log.warn("key sk-secret");
    expect(sent).toEqual([["window/logMessage", { type: MessageType.Warning, message: "key ***" }]]);
  });

  it("tells a failure: logged as an error and shown with its severity", () => {
    const { channel: c, sent } = channel({ level: "off" });
    c.tell({ kind: "auth", severity: "error", message: "infill: rejected sk-secret" });
    c.tell({ kind: "unavailable", severity: "warning", message: "infill: unavailable" });
    expect(sent).toEqual([
      ["window/showMessage", { type: MessageType.Error, message: "infill: rejected ***" }],
      ["window/showMessage", { type: MessageType.Warning, message: "infill: unavailable" }],
    ]);
  });

  it("never throws when the client is gone", async () => {
    const { channel: c } = channel({ failing: true });
    expect(() => c.show(MessageType.Info, "x")).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("sends metrics rounded to 0.01 ms, with null for what a suggestion did not have, once the cost is known", async () => {
    const { channel: c, sent } = channel();
    let costKnown: (cost: RequestCost) => void = () => {};
    const cost = new Promise<RequestCost>((resolve) => {
      costKnown = resolve;
    });
    c.metrics(
      "file:///a.ts",
      {
        kind: "suggestion",
        text: "x",
        replaceEnd: 0,
        position: { line: 0, character: 0 },
        source: "memory",
        latencyMs: 1.23456,
        suggestion: {
          uri: "file:///a.ts",
          line: 0,
          character: 0,
          linePrefix: "",
          lineRest: "",
          text: "x",
          replaceEnd: 0,
        },
      },
      cost,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    costKnown({ gcMs: 0.456789, heapBytes: null });
    await cost;
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent[0]).toEqual([
      "$/infill/metrics",
      {
        uri: "file:///a.ts",
        source: "memory",
        latencyMs: 1.23,
        upstreamMs: null,
        usage: null,
        context: null,
        debounceMs: null,
        gcMs: 0.46,
        heapBytes: null,
      },
    ]);
  });

  describe("progress, on a fake clock", () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("reports nothing to a client without work done progress", () => {
      const { channel: c, progress } = channel();
      const done = c.progress();
      vi.advanceTimersByTime(1_000);
      done();
      expect(progress).toEqual([]);
    });

    it("reports nothing for a request that ends before the delay", async () => {
      const { channel: c, progress, create } = channel({ progress: true });
      const done = c.progress();
      vi.advanceTimersByTime(149);
      done();
      vi.advanceTimersByTime(1_000);
      create();
      await Promise.resolve();
      expect(progress).toEqual([]);
    });

    it("begins after the delay and ends when the request ends, even if it ends while the token is created", async () => {
      const { channel: c, progress, create } = channel({ progress: true });
      const done = c.progress();
      vi.advanceTimersByTime(150);
      done();
      create();
      await vi.waitFor(() => expect(progress).toEqual(["begin infill", "done"]));
    });
  });
});
