// Asking for a full collection: it collects (what only a weak reference holds is gone), once per burst.
import { setImmediate as turn } from "node:timers/promises";
import { afterEach, expect, it, vi } from "vitest";
import { collectGarbage, GarbageCollector } from "../../src/protocol/garbage-collector.js";
import { sessions } from "../support/session.js";

const start = sessions();

afterEach(() => {
  vi.useRealTimers();
});

it("collects the whole heap: an object only a weak reference holds is gone", async () => {
  let big: number[] | undefined = Array.from({ length: 100_000 }, (_, i) => i);
  const ref = new WeakRef(big);
  big = undefined;
  // A weak reference's target is kept to the end of the job that made it.
  await turn();
  collectGarbage();
  expect(ref.deref()).toBeUndefined();
});

it("collects once per burst of asks, a moment after the last", () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const collect = vi.fn();
  const collector = new GarbageCollector(100, collect);
  collector.soon();
  vi.advanceTimersByTime(60);
  collector.soon();
  vi.advanceTimersByTime(99);
  expect(collect).not.toHaveBeenCalled();
  vi.advanceTimersByTime(1);
  expect(collect).toHaveBeenCalledTimes(1);
  collector.soon();
  vi.advanceTimersByTime(100);
  expect(collect).toHaveBeenCalledTimes(2);
});

it("is asked for by the server once a buffer of a mebibyte or more closes, not a small one", async () => {
  const soon = vi.spyOn(GarbageCollector.prototype, "soon").mockImplementation(() => {});
  const s = await start();
  const closeAndSettle = async (uri: string) => {
    await s.client.sendNotification("textDocument/didClose", { textDocument: { uri } });
    // Messages are handled in order: once this is answered, the close was.
    await s.client.sendRequest("workspace/executeCommand", {
      command: "infill.status",
      arguments: [{ message: false }],
    });
  };
  await s.open("file:///small.ts", "export const a = 1;\n");
  await closeAndSettle("file:///small.ts");
  expect(soon).not.toHaveBeenCalled();
  await s.open("file:///big.ts", "export const a = 1; // a line of code\n".repeat(30_000));
  await closeAndSettle("file:///big.ts");
  expect(soon).toHaveBeenCalledTimes(1);
  soon.mockRestore();
  // The server starts loading its HTTP client at `initialized` and nothing here waits for it: let it finish before
  // the test's environment is torn down (a module loaded after that is an unhandled error).
  await import("@infill/core");
});
