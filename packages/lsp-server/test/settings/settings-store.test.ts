import { describe, expect, it } from "vitest";
import type { Settings } from "../../src/settings/settings.js";
import { infillSection, SettingsStore } from "../../src/settings/settings-store.js";

function store(env: NodeJS.ProcessEnv = {}) {
  const problems: Array<[string, boolean]> = [];
  const changes: Settings[] = [];
  const settings = new SettingsStore({
    env,
    onProblem: (problem, firstTime) => problems.push([problem, firstTime]),
    onChange: (next) => changes.push(next),
  });
  return { settings, problems, changes };
}

describe("SettingsStore", () => {
  it("starts from the defaults, with INFILL_MODEL and INFILL_BASE_URL", () => {
    const { settings } = store({ INFILL_MODEL: "deepseek-v4-pro", INFILL_BASE_URL: "http://127.0.0.1:1" });
    expect(settings.current).toMatchObject({
      model: "deepseek-v4-pro",
      baseUrl: "http://127.0.0.1:1",
      maxTokens: 256,
    });
  });

  it("layers initializationOptions (ours at the top or under `infill`) under the workspace settings", async () => {
    const { settings, changes } = store();
    settings.initialize({ infill: { maxTokens: 64, temperature: 0.5 }, otherServer: { x: 1 } });
    await settings.ready;
    expect(settings.current).toMatchObject({ maxTokens: 64, temperature: 0.5 });
    await settings.pull(undefined, { maxTokens: 32 });
    expect(settings.current).toMatchObject({ maxTokens: 32, temperature: 0.5 });
    expect(changes.map((s) => s.maxTokens)).toEqual([64, 32]);
  });

  it("merges `context` key by key across layers", async () => {
    const { settings } = store();
    settings.initialize({ context: { maxTokens: 512 } });
    await settings.pull(undefined, { context: { exclude: ["*.gen.ts"] } });
    await settings.ready;
    expect(settings.current.context).toEqual({
      enabled: true,
      maxTokens: 512,
      exclude: ["*.gen.ts"],
      holdout: 0,
      typeDefinitionMs: 50,
    });
  });

  it("keeps a setting's last good value when a new one is bad, and reports each problem once", async () => {
    const { settings, problems } = store();
    await settings.pull(undefined, { maxTokens: 100 });
    await settings.pull(undefined, { maxTokens: -1 });
    await settings.pull(undefined, { maxTokens: -1 });
    expect(settings.current.maxTokens).toBe(100);
    expect(problems).toHaveLength(2);
    expect(problems[0]?.[0]).toMatch(/^infill: ignoring workspace settings: maxTokens: /);
    expect(problems.map(([, first]) => first)).toEqual([true, false]);
  });

  it("pulls from the client when it can, and an unanswered pull is an empty layer", async () => {
    const { settings } = store();
    await settings.pull(async () => ({ maxTokens: 12 }), { maxTokens: 99 });
    expect(settings.current.maxTokens).toBe(12);
    await settings.pull(() => Promise.reject(new Error("no answer")));
    expect(settings.current.maxTokens).toBe(256);
  });

  it("tells no change when nothing changed", async () => {
    const { settings, changes } = store();
    await settings.pull(undefined, { maxTokens: 256 });
    expect(changes).toEqual([]);
  });

  it("runs a task after the reads started so far, and `ready` waits for it too", async () => {
    const { settings } = store();
    const order: string[] = [];
    settings.initialize({ maxTokens: 8 });
    settings.after(() => {
      order.push(`after: ${settings.current.maxTokens}`);
    });
    settings.after(() => {
      throw new Error("a failed task does not break the chain");
    });
    await settings.ready;
    order.push("ready");
    expect(order).toEqual(["after: 8", "ready"]);
  });
});

describe("infillSection", () => {
  it.each([
    [{ infill: { a: 1 } }, { a: 1 }],
    [{ a: 1 }, { a: 1 }],
    [null, null],
    ["x", "x"],
  ])("%j → %j", (raw, own) => {
    expect(infillSection(raw)).toEqual(own);
  });
});
