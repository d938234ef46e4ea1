import { describe, expect, it } from "vitest";
import { NEXT_EDIT_FORMAT_NAMES } from "../../src/next-edit/prompt/formats.js";
import { defaultSettings, isEnabledFor, mergeSettings } from "../../src/settings/settings.js";
import { FIELDS, NEXT_EDIT_FORMATS, parseLayer } from "../../src/settings/settings-schema.js";

describe("parseLayer", () => {
  it("keeps the valid keys and names each refused one", () => {
    const { layer, problems, rejected } = parseLayer(
      { debounceMs: 50, maxTokens: 9000, colour: "blue", lineMode: "single-line" },
      "initializationOptions",
    );
    expect(layer).toEqual({ debounceMs: 50, lineMode: "single-line" });
    expect(rejected).toEqual(["maxTokens"]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/maxTokens/);
    expect(problems[1]).toMatch(/unknown setting "colour"/);
  });

  it.each([
    [{ debounceMs: -1 }, "debounceMs"],
    [{ debounceMs: 1.5 }, "debounceMs"],
    [{ temperature: 3 }, "temperature"],
    [{ provider: "openai" }, "provider"],
    [{ baseUrl: "not a url" }, "baseUrl"],
    [{ languages: { markdown: "no" } }, "languages"],
    [{ logLevel: "trace" }, "logLevel"],
    [{ model: "" }, "model"],
    [{ context: { maxTokens: -1 } }, "context.maxTokens"],
    [{ context: { exclude: "*.gen.ts" } }, "context.exclude"],
    [{ context: { depth: 2 } }, "context"],
    [{ context: { holdout: 1.5 } }, "context.holdout"],
    [{ usage: { retentionChecks: [30, 0] } }, "usage.retentionChecks"],
    [{ usage: { retentionChecks: [1, 2, 3, 4, 5, 6, 7, 8, 9] } }, "usage.retentionChecks"],
    [{ usage: { retentionChecks: 30 } }, "usage.retentionChecks"],
    [{ nextEdit: { provider: "codestral" } }, "nextEdit.provider"],
    [{ nextEdit: { format: "copilot" } }, "nextEdit.format"],
    [{ nextEdit: { maxRegionLines: 1 } }, "nextEdit.maxRegionLines"],
    [{ nextEdit: { apiKeyEnv: "sk-1234" } }, "nextEdit.apiKeyEnv"],
    [{ constructor: 1 }, "constructor"],
    [JSON.parse('{"__proto__": {"debounceMs": 0}}'), "__proto__"],
  ])("%j is refused, naming %s", (raw, key) => {
    const { layer, problems } = parseLayer(raw, "settings");
    expect(layer).toEqual({});
    expect(problems[0]).toContain(key);
  });

  it.each([
    [
      { provider: "openai" },
      'provider: expected one of "deepseek", "sim", "openai-compatible", "ollama", "llamacpp", "codestral"',
    ],
    [{ apiKeyEnv: "sk-0123" }, "apiKeyEnv: must be an environment variable's name"],
    [{ lineMode: "block" }, 'lineMode: expected one of "auto", "single-line", "multi-line"'],
    [{ maxTokens: 0 }, "maxTokens: must be at least 1"],
    [{ maxTokens: 9000 }, "maxTokens: must be at most 4096"],
    [{ maxTokens: "64" }, "maxTokens: expected a number"],
    [{ debounceMs: 1.5 }, "debounceMs: expected an integer"],
    [{ temperature: 3 }, "temperature: must be at most 2"],
    [{ baseUrl: "not a url" }, "baseUrl: expected a URL"],
    [{ languages: { markdown: "no" } }, "languages.markdown: expected true or false"],
    [{ languages: [] }, "languages: expected an object"],
    [{ model: "" }, "model: must not be empty"],
    [{ enable: 1 }, "enable: expected true or false"],
    [
      { nextEdit: { format: "copilot" } },
      'nextEdit.format: expected one of "zeta", "sweep", "instinct", "deepseek"',
    ],
  ])("%j says what the setting accepts: %s", (raw, reason) => {
    expect(parseLayer(raw, "settings").problems).toEqual([`infill: ignoring settings: ${reason}`]);
  });

  it("names the allowed values of every enum setting, as the schema lists them", () => {
    const enums = Object.entries(FIELDS).flatMap(([key, schema]) =>
      "options" in schema ? [[key, schema.options as readonly string[]] as const] : [],
    );
    expect(enums.map(([key]) => key)).toContain("provider");
    for (const [key, values] of enums) {
      const [problem] = parseLayer({ [key]: "sk-not-a-value-1234" }, "settings").problems;
      expect(problem).toBe(
        `infill: ignoring settings: ${key}: expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
      );
    }
  });

  it("never quotes a refused value back (it may be a key in the wrong place)", () => {
    const secret = "sk-0123456789abcdef";
    const { problems } = parseLayer(
      { provider: secret, model: 7, baseUrl: secret, languages: { x: secret } },
      "settings",
    );
    expect(problems).toHaveLength(4);
    for (const problem of problems) expect(problem).not.toContain("0123456789");
  });

  it("takes null as an empty layer and refuses a non-object", () => {
    expect(parseLayer(null, "x")).toEqual({ layer: {}, problems: [], rejected: [] });
    expect(parseLayer([1], "x").problems).toHaveLength(1);
    expect(parseLayer("debounceMs=3", "x").problems).toHaveLength(1);
  });
});

describe("settings", () => {
  it("layers defaults < initializationOptions < workspace, with the environment in the defaults", () => {
    const base = defaultSettings({
      INFILL_MODEL: "deepseek-v4-pro",
      INFILL_BASE_URL: "http://127.0.0.1:1/beta",
    });
    expect(base.model).toBe("deepseek-v4-pro");
    expect(base.baseUrl).toBe("http://127.0.0.1:1/beta");
    const merged = mergeSettings(base, { debounceMs: 10, maxTokens: 64 }, { debounceMs: 0 });
    expect(merged).toMatchObject({ debounceMs: 0, maxTokens: 64, model: "deepseek-v4-pro" });
  });

  it("merges the context setting key by key across layers", () => {
    const merged = mergeSettings(
      defaultSettings({}),
      { context: { maxTokens: 512, exclude: ["*.gen.ts"] } },
      { context: { enabled: false } },
    );
    expect(merged.context).toEqual({
      enabled: false,
      maxTokens: 512,
      exclude: ["*.gen.ts"],
      holdout: 0,
      typeDefinitionMs: 50,
    });
    expect(defaultSettings({}).context).toEqual({
      enabled: true,
      maxTokens: 1024,
      exclude: [],
      holdout: 0,
      typeDefinitionMs: 50,
    });
    expect(mergeSettings(defaultSettings({}), { usage: { retentionChecks: [0.2, 0.5] } }).usage).toEqual({
      persist: true,
      retentionChecks: [0.2, 0.5],
    });
  });

  it("offers nextEdit.format exactly the formats next-edit has", () => {
    expect([...NEXT_EDIT_FORMATS]).toEqual(NEXT_EDIT_FORMAT_NAMES);
  });

  it("merges nextEdit key by key, off by default", () => {
    expect(defaultSettings({}).nextEdit).toMatchObject({
      enabled: false,
      debounceMs: 300,
      maxRegionLines: 40,
    });
    const merged = mergeSettings(
      defaultSettings({}),
      { nextEdit: { enabled: true, provider: "ollama", format: "instinct" } },
      { nextEdit: { model: "nate/instinct" } },
    );
    expect(merged.nextEdit).toEqual({
      enabled: true,
      provider: "ollama",
      format: "instinct",
      model: "nate/instinct",
      baseUrl: undefined,
      apiKeyEnv: undefined,
      debounceMs: 300,
      maxRegionLines: 40,
    });
  });

  it.each([
    [{}, "typescript", true],
    [{ enable: false }, "typescript", false],
    [{ languages: { markdown: false } }, "markdown", false],
    [{ languages: { markdown: false } }, "python", true],
    [{ languages: { "*": false, python: true } }, "python", true],
    [{ languages: { "*": false, python: true } }, "go", false],
  ])("%j enables %s: %s", (layer, languageId, enabled) => {
    expect(isEnabledFor(mergeSettings(defaultSettings({}), layer), languageId)).toBe(enabled);
  });
});
