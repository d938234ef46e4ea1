import { describe, expect, it } from "vitest";
import { defaultSettings, mergeSettings, type SettingsLayer } from "../../src/settings/settings.js";
import { editConfig } from "../../src/upstream/edit-config.js";

const resolved = (layer: SettingsLayer, env: NodeJS.ProcessEnv = {}) =>
  editConfig(mergeSettings(defaultSettings(env), layer));

describe("editConfig", () => {
  it.each<[string, SettingsLayer, object]>([
    ["DeepSeek by default, with the deepseek format", {}, { provider: "deepseek", format: "deepseek" }],
    ["the sim speaks deepseek too", { provider: "sim" }, { provider: "sim", format: "deepseek" }],
    [
      "the completion provider's base URL and key variable when it is the same one",
      {
        provider: "openai-compatible",
        baseUrl: "http://127.0.0.1:1234/v1",
        apiKeyEnv: "HOST_KEY",
        nextEdit: { format: "zeta" },
      },
      {
        provider: "openai-compatible",
        format: "zeta",
        baseUrl: "http://127.0.0.1:1234/v1",
        apiKeyEnv: "HOST_KEY",
      },
    ],
    [
      "not another provider's",
      {
        provider: "deepseek",
        baseUrl: "http://127.0.0.1:9/beta",
        nextEdit: { provider: "ollama", format: "instinct", model: "nate/instinct" },
      },
      {
        provider: "ollama",
        format: "instinct",
        model: "nate/instinct",
        baseUrl: undefined,
        apiKeyEnv: undefined,
      },
    ],
  ])("%s", (_name, layer, expected) => {
    expect(resolved(layer)).toMatchObject(expected);
  });

  it.each<[SettingsLayer, string]>([
    [{ provider: "ollama" }, '"nextEdit.format" is required with the next-edit provider "ollama"'],
    [
      { nextEdit: { provider: "llamacpp" } },
      '"nextEdit.format" is required with the next-edit provider "llamacpp"',
    ],
    [{ provider: "codestral" }, 'Codestral has no next-edit model: set "nextEdit.provider"'],
  ])("%j is a problem naming the setting", (layer, problem) => {
    const result = resolved(layer);
    expect("problem" in result && result.problem).toContain(problem);
  });
});
