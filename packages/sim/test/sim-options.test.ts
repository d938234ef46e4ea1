import { describe, expect, it } from "vitest";
import type { DialectName } from "../src/dialects/dialect.js";
import { MAX_DELAY_MS, milliseconds, type SimOptions, simSettings } from "../src/sim-options.js";

describe("simSettings", () => {
  it("fills in the documented defaults", () => {
    const settings = simSettings({});
    expect({ ...settings, dialect: settings.dialect.name }).toEqual({
      dialect: "deepseek",
      fim: true,
      writeOn: false,
      apiKey: undefined,
      latencyMs: 0,
      tokenMs: 0,
      keepAlive: false,
      keepAliveIntervalMs: 25,
      keepRequests: Infinity,
      concurrencyLimit: Infinity,
      tokensPerMinute: undefined,
      tokenWindowMs: undefined,
    });
  });

  it("keeps what it is given; an infinite tokens-per-minute limit is none", () => {
    const settings = simSettings({
      dialect: "ollama",
      fim: false,
      writeOn: true,
      apiKey: "sk-x",
      latencyMs: 5,
      tokenMs: 1.5,
      keepAlive: true,
      keepAliveIntervalMs: 10,
      keepRequests: 0,
      concurrencyLimit: 3,
      tokensPerMinute: 1000,
      tokenWindowMs: 500,
    });
    expect(settings).toMatchObject({ fim: false, writeOn: true, apiKey: "sk-x", latencyMs: 5, tokenMs: 1.5 });
    expect(settings).toMatchObject({ keepAliveIntervalMs: 10, keepRequests: 0, concurrencyLimit: 3 });
    expect(settings).toMatchObject({ tokensPerMinute: 1000, tokenWindowMs: 500 });
    expect(settings.dialect.name).toBe("ollama");
    expect(simSettings({ tokensPerMinute: Infinity }).tokensPerMinute).toBeUndefined();
  });

  it.each<[SimOptions, RegExp]>([
    [{ dialect: "gpt" as DialectName }, /dialect must be one of deepseek, /],
    [{ latencyMs: -1 }, /latencyMs must be a number of milliseconds in 0\.\.2147483647, got -1/],
    [{ tokenMs: Number.NaN }, /tokenMs must be .* got NaN/],
    [{ latencyMs: MAX_DELAY_MS + 1 }, /latencyMs must be/],
    [{ keepAliveIntervalMs: 0 }, /keepAliveIntervalMs must be > 0/],
    [{ keepRequests: -1 }, /keepRequests must be ≥ 0, got -1/],
    [{ concurrencyLimit: 0.5 }, /concurrencyLimit must be ≥ 1, got 0.5/],
    // The first bad option, in the documented order, is the one named.
    [{ tokenMs: -1, latencyMs: -1 }, /^latencyMs/],
  ])("refuses %j", (options, message) => {
    expect(() => simSettings(options)).toThrow(RangeError);
    expect(() => simSettings(options)).toThrow(message);
  });

  it.each([
    [undefined, 7, 7],
    [0, 7, 0],
    [MAX_DELAY_MS, 7, MAX_DELAY_MS],
  ])("milliseconds(%s, fallback %s) is %s", (value, fallback, expected) => {
    expect(milliseconds("x", value, fallback)).toBe(expected);
  });
});
