import { afterEach, describe, expect, it, vi } from "vitest";
import { maskKey } from "../src/api-error.js";
import { complete, MODEL, post, sim } from "./helpers.js";

const KEY = "sk-configured-0123456789";
const body = { model: MODEL, prompt: "function f() {\n  return 1;\n}\n" };

function unauthorized(message: string) {
  return { error: { message, type: "authentication_error", param: null, code: "invalid_request_error" } };
}

describe("with an apiKey", () => {
  it("accepts the right key", async () => {
    const s = await sim({ apiKey: KEY });
    expect((await complete(s, body, { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it("refuses a wrong key, showing only its last four characters", async () => {
    const s = await sim({ apiKey: KEY });
    const wrong = "sk-wrong-key-9876wxyz";
    const { status, json } = await complete(s, body, { authorization: `Bearer ${wrong}` });
    expect(status).toBe(401);
    expect(json).toEqual(unauthorized("Authentication Fails, Your api key: ****wxyz is invalid"));
    const text = JSON.stringify(json);
    expect(text).not.toContain(wrong);
    expect(text).not.toContain("9876");
    expect(text).not.toContain(KEY);
    expect(s.requests[0]?.status).toBe(401);
  });

  it.each([
    ["no Authorization header", undefined],
    ["a scheme other than Bearer", `Basic ${KEY}`],
    ["Bearer without a key", "Bearer "],
  ])("refuses %s with the header-format message", async (_, authorization) => {
    const s = await sim({ apiKey: KEY });
    const { status, json } = await complete(
      s,
      body,
      authorization === undefined ? undefined : { authorization },
    );
    expect(status).toBe(401);
    expect(json).toEqual(unauthorized("Authentication Fails (auth header format should be Bearer sk-...)"));
  });

  it("never shows a short key whole", async () => {
    const s = await sim({ apiKey: KEY });
    const { json } = await complete(s, body, { authorization: "Bearer abcd" });
    expect(json.error.message).toBe("Authentication Fails, Your api key: **** is invalid");
    expect(maskKey("abcdefgh")).toBe("****efgh");
    expect(maskKey("abcdefg")).toBe("****");
  });
});

describe("without an apiKey", () => {
  it.each([
    ["no header", undefined],
    ["any key", { authorization: "Bearer whatever" }],
    ["a malformed header", { authorization: "Token x" }],
  ])("accepts %s", async (_, headers) => {
    const s = await sim();
    expect((await complete(s, body, headers)).status).toBe(200);
  });
});

describe("the key never reaches a log", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes nothing to the console or stdio while serving", async () => {
    const spies = [
      ...(["log", "info", "warn", "error", "debug", "trace"] as const).map((m) => vi.spyOn(console, m)),
      vi.spyOn(process.stdout, "write"),
      vi.spyOn(process.stderr, "write"),
    ];
    const s = await sim({ apiKey: KEY });
    await complete(s, body, { authorization: `Bearer ${KEY}` });
    await complete(s, body, { authorization: "Bearer sk-another-wrong-key" });
    await (await post(s, { ...body, stream: true }, { headers: { authorization: `Bearer ${KEY}` } })).text();
    await s.close();
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
