import { describe, expect, it } from "vitest";
import { complete, MODEL, post, sim } from "./helpers.js";

const DESERIALIZE = "Failed to deserialize the JSON body into the target type: ";
const valid = { model: MODEL, prompt: "x" };

function errorBody(message: string) {
  return { error: { message, type: "invalid_request_error", param: null, code: "invalid_request_error" } };
}

describe("400 for a body that is not a JSON object", () => {
  it.each([
    ["not JSON", "{model:", "Failed to parse the request body as JSON"],
    ["empty", "", "Failed to parse the request body as JSON"],
    ["an array", "[]", `${DESERIALIZE}invalid type: sequence, expected a JSON object`],
    ["null", "null", `${DESERIALIZE}invalid type: null, expected a JSON object`],
    ["a string", '"hi"', `${DESERIALIZE}invalid type: string "hi", expected a JSON object`],
    ["a number", "42", `${DESERIALIZE}invalid type: integer \`42\`, expected a JSON object`],
  ])("%s", async (_, body, message) => {
    const s = await sim();
    const res = await post(s, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual(errorBody(message));
  });

  it("records the body as undefined when it does not parse", async () => {
    const s = await sim();
    await (await post(s, "{nope")).text();
    await (await post(s, "[1]")).text();
    expect(s.requests.map((r) => r.body)).toEqual([undefined, [1]]);
  });
});

const invalid: [string, Record<string, unknown>, string][] = [
  ["model missing", { prompt: "x" }, `${DESERIALIZE}missing field \`model\``],
  [
    "model not a string",
    { model: 5, prompt: "x" },
    `${DESERIALIZE}model: invalid type: integer \`5\`, expected a string`,
  ],
  ["model null", { model: null, prompt: "x" }, `${DESERIALIZE}model: invalid type: null, expected a string`],
  ["prompt missing", { model: MODEL }, `${DESERIALIZE}missing field \`prompt\``],
  [
    "prompt not a string",
    { model: MODEL, prompt: ["a"] },
    `${DESERIALIZE}prompt: invalid type: sequence, expected a string`,
  ],
  [
    "echo not a boolean",
    { ...valid, echo: "true" },
    `${DESERIALIZE}echo: invalid type: string "true", expected a boolean`,
  ],
  ["frequency_penalty below -2", { ...valid, frequency_penalty: -2.5 }, rangeOf("frequency_penalty", -2, 2)],
  ["frequency_penalty above 2", { ...valid, frequency_penalty: 2.01 }, rangeOf("frequency_penalty", -2, 2)],
  [
    "frequency_penalty not a number",
    { ...valid, frequency_penalty: "1" },
    `${DESERIALIZE}frequency_penalty: invalid type: string "1", expected a number`,
  ],
  ["logprobs below 0", { ...valid, logprobs: -1 }, rangeOf("logprobs", 0, 20)],
  ["logprobs above 20", { ...valid, logprobs: 21 }, rangeOf("logprobs", 0, 20)],
  [
    "logprobs not an integer",
    { ...valid, logprobs: 1.5 },
    `${DESERIALIZE}logprobs: invalid type: floating point \`1.5\`, expected an integer`,
  ],
  [
    "logprobs a boolean",
    { ...valid, logprobs: true },
    `${DESERIALIZE}logprobs: invalid type: boolean \`true\`, expected an integer`,
  ],
  ["max_tokens 0", { ...valid, max_tokens: 0 }, rangeOf("max_tokens", 1, 4096)],
  ["max_tokens above 4096", { ...valid, max_tokens: 4097 }, rangeOf("max_tokens", 1, 4096)],
  [
    "max_tokens not an integer",
    { ...valid, max_tokens: 10.5 },
    `${DESERIALIZE}max_tokens: invalid type: floating point \`10.5\`, expected an integer`,
  ],
  ["presence_penalty below -2", { ...valid, presence_penalty: -3 }, rangeOf("presence_penalty", -2, 2)],
  ["presence_penalty above 2", { ...valid, presence_penalty: 3 }, rangeOf("presence_penalty", -2, 2)],
  [
    "stop a number",
    { ...valid, stop: 5 },
    "Invalid stop value, stop must be a string or an array of at most 16 strings",
  ],
  [
    "stop with a non-string",
    { ...valid, stop: ["a", 1] },
    "Invalid stop value, stop must be a string or an array of at most 16 strings",
  ],
  [
    "stop with 17 strings",
    { ...valid, stop: Array.from({ length: 17 }, (_, i) => `s${i}`) },
    "Invalid stop value, stop must be a string or an array of at most 16 strings",
  ],
  [
    "stream not a boolean",
    { ...valid, stream: 1 },
    `${DESERIALIZE}stream: invalid type: integer \`1\`, expected a boolean`,
  ],
  [
    "stream_options without stream",
    { ...valid, stream_options: { include_usage: true } },
    "Invalid stream_options value, stream_options is only allowed when stream is true",
  ],
  [
    "stream_options with stream false",
    { ...valid, stream: false, stream_options: { include_usage: true } },
    "Invalid stream_options value, stream_options is only allowed when stream is true",
  ],
  [
    "stream_options not an object",
    { ...valid, stream: true, stream_options: "usage" },
    `${DESERIALIZE}stream_options: invalid type: string "usage", expected a map`,
  ],
  [
    "include_usage not a boolean",
    { ...valid, stream: true, stream_options: { include_usage: "yes" } },
    `${DESERIALIZE}stream_options.include_usage: invalid type: string "yes", expected a boolean`,
  ],
  [
    "suffix not a string",
    { ...valid, suffix: 7 },
    `${DESERIALIZE}suffix: invalid type: integer \`7\`, expected a string`,
  ],
  ["temperature below 0", { ...valid, temperature: -0.1 }, rangeOf("temperature", 0, 2)],
  ["temperature above 2", { ...valid, temperature: 2.1 }, rangeOf("temperature", 0, 2)],
  ["top_p below 0", { ...valid, top_p: -0.5 }, rangeOf("top_p", 0, 1)],
  ["top_p above 1", { ...valid, top_p: 1.01 }, rangeOf("top_p", 0, 1)],
  [
    "top_p not a number",
    { ...valid, top_p: {} },
    `${DESERIALIZE}top_p: invalid type: map, expected a number`,
  ],
  [
    "the first bad field in request order",
    { ...valid, top_p: 5, logprobs: 50, temperature: 9 },
    rangeOf("logprobs", 0, 20),
  ],
];

function rangeOf(field: string, min: number, max: number): string {
  return `Invalid ${field} value, the valid range of ${field} is [${min}, ${max}]`;
}

describe("422 for invalid parameters, naming the field", () => {
  it.each(invalid)("%s", async (_, body, message) => {
    const s = await sim();
    const { status, json } = await complete(s, body);
    expect(status).toBe(422);
    expect(json).toEqual(errorBody(message));
    expect(s.requests[0]?.status).toBe(422);
  });
});

describe("models", () => {
  it.each(["deepseek-chat", "deepseek-reasoner", "deepseek-coder", "deepseek-v4", "gpt-4o", ""])(
    "refuses %j and lists the accepted ones",
    async (model) => {
      const s = await sim();
      const { status, json } = await complete(s, { model, prompt: "x" });
      expect(status).toBe(422);
      expect(json.error.message).toBe(
        `Model Not Exist: ${JSON.stringify(model)} is not available for FIM completion; use one of deepseek-v4-flash, deepseek-v4-pro`,
      );
    },
  );

  it.each(["deepseek-v4-flash", "deepseek-v4-pro"])("accepts %s", async (model) => {
    const s = await sim();
    expect((await complete(s, { model, prompt: "x" })).status).toBe(200);
  });
});

describe("accepted bodies", () => {
  it.each([
    [
      "every bound at its minimum",
      { logprobs: 0, frequency_penalty: -2, presence_penalty: -2, temperature: 0, top_p: 0, max_tokens: 1 },
    ],
    [
      "every bound at its maximum",
      { logprobs: 20, frequency_penalty: 2, presence_penalty: 2, temperature: 2, top_p: 1, max_tokens: 4096 },
    ],
    [
      "every optional field null",
      {
        echo: null,
        frequency_penalty: null,
        logprobs: null,
        max_tokens: null,
        presence_penalty: null,
        stop: null,
        stream: null,
        stream_options: null,
        suffix: null,
        temperature: null,
        top_p: null,
      },
    ],
    ["16 stop strings", { stop: Array.from({ length: 16 }, (_, i) => `s${i}`) }],
    ["a stop string", { stop: "\n\n" }],
    ["integer-valued floats", { max_tokens: 5.0, presence_penalty: 1 }],
    ["unknown fields, ignored", { user: "me", seed: 1, n: 3, thinking: { type: "disabled" } }],
  ])("%s", async (_, extra) => {
    const s = await sim();
    const { status, json } = await complete(s, { ...valid, ...extra });
    expect(status).toBe(200);
    expect(json.object).toBe("text_completion");
  });
});
