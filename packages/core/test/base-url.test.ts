import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { assertSecureBaseURL, isLoopbackHost } from "../src/base-url.js";
import { DEFAULT_BASE_URL, normalizeBaseURL, ValidationError } from "../src/index.js";

describe("normalizeBaseURL", () => {
  it.each([
    ["https://api.deepseek.com", "https://api.deepseek.com/beta"],
    ["https://api.deepseek.com/", "https://api.deepseek.com/beta"],
    ["https://api.deepseek.com/beta", "https://api.deepseek.com/beta"],
    ["https://api.deepseek.com/beta/", "https://api.deepseek.com/beta"],
    ["https://api.deepseek.com/beta//", "https://api.deepseek.com/beta"],
    ["  https://api.deepseek.com/beta  ", "https://api.deepseek.com/beta"],
    ["HTTPS://API.DEEPSEEK.COM", "https://api.deepseek.com/beta"],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/beta"],
    ["http://127.0.0.1:8080/beta", "http://127.0.0.1:8080/beta"],
    ["http://localhost:11434/v1", "http://localhost:11434/v1"],
    ["https://proxy.example/v1", "https://proxy.example/v1"],
    ["https://proxy.example/deepseek/beta/", "https://proxy.example/deepseek/beta"],
    ["http://[::1]:9000", "http://[::1]:9000/beta"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeBaseURL(input)).toBe(expected);
  });

  it("keeps the default as is", () => {
    expect(normalizeBaseURL(DEFAULT_BASE_URL)).toBe(DEFAULT_BASE_URL);
  });

  it.each([
    [
      "https://api.deepseek.com/beta/completions",
      "pass https://api.deepseek.com/beta, not https://api.deepseek.com/beta/completions",
    ],
    ["https://api.deepseek.com/beta/completions/", "pass https://api.deepseek.com/beta, not"],
    [
      "https://api.deepseek.com/chat/completions",
      "pass https://api.deepseek.com/beta, not https://api.deepseek.com/chat/completions",
    ],
    ["https://api.deepseek.com/v1/chat/completions", "pass https://api.deepseek.com/beta, not"],
    [
      "http://127.0.0.1:9/beta/completions",
      "pass http://127.0.0.1:9/beta, not http://127.0.0.1:9/beta/completions",
    ],
    ["http://localhost:11434/v1/completions", "pass http://localhost:11434/v1, not"],
    ["http://localhost:11434/completions", "pass http://localhost:11434/beta, not"],
  ])("refuses the endpoint %s", (input, hint) => {
    const error = catchError(() => normalizeBaseURL(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe("baseURL");
    expect(error.message).toContain(hint);
  });

  it.each([
    "https://api.deepseek.com/v1",
    "https://api.deepseek.com/v1/",
    "https://api.deepseek.com/beta/v1",
    "https://api.deepseek.com/anything",
  ])("refuses %s: DeepSeek serves FIM only under /beta", (input) => {
    const error = catchError(() => normalizeBaseURL(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe("baseURL");
    expect(error.message).toContain("pass https://api.deepseek.com/beta, not https://api.deepseek.com/");
  });

  it("does not quote a value that is not a URL (it may be a key in the wrong variable), nor keep it as cause", () => {
    const key = "sk-0123456789abcdef0123456789abcdef";
    const error = catchError(() => normalizeBaseURL(key, "INFILL_BASE_URL"));
    expect(error.field).toBe("baseURL");
    expect(error.message).toBe(
      "INFILL_BASE_URL is not a valid URL; pass the API base as an http(s) URL, e.g. https://api.deepseek.com/beta",
    );
    expect(inspect(error, { depth: 20, showHidden: true })).not.toContain(key);
    expect(catchError(() => normalizeBaseURL(key)).message).toMatch(/^baseURL is not a valid URL;/);
  });

  it.each([
    ["not a url", "not a valid URL"],
    ["ftp://api.deepseek.com", "must use https"],
    ["https://api.deepseek.com/beta?x=1", "query"],
    ["https://api.deepseek.com/beta#x", "fragment"],
    ["https://user:secret@api.deepseek.com", "credentials"],
  ])("refuses %s", (input, hint) => {
    const error = catchError(() => normalizeBaseURL(input));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toContain(hint);
    expect(error.message).not.toContain("secret");
  });
});

describe("plain http", () => {
  it.each([
    ["localhost", true],
    ["127.0.0.1", true],
    ["127.255.3.4", true],
    ["[::1]", true],
    ["128.0.0.1", false],
    ["localhost.example.com", false],
    ["127.0.0.1.nip.io", false],
    ["[::2]", false],
    ["10.0.0.1", false],
  ])("isLoopbackHost(%s) is %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it("is allowed to loopback and refused elsewhere unless opted in", () => {
    expect(() => assertSecureBaseURL("http://127.0.0.1:1/beta", false)).not.toThrow();
    expect(() => assertSecureBaseURL("http://localhost:1/beta", false)).not.toThrow();
    expect(() => assertSecureBaseURL("http://[::1]:1/beta", false)).not.toThrow();
    expect(() => assertSecureBaseURL("https://example.com/beta", false)).not.toThrow();
    expect(() => assertSecureBaseURL("http://example.com/beta", true)).not.toThrow();
    const error = catchError(() => assertSecureBaseURL("http://example.com/beta", false));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.field).toBe("baseURL");
    expect(error.message).toContain("allowInsecureHttp: true");
  });
});

function catchError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error("expected a throw");
}
