// The hand-written checks that spare the schemas on the common shapes: never a yes the schema would not give, and
// then the schema's very output; a no for whatever they are unsure of.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastRequestBody } from "../src/request-fast-path.js";
import { fastCompletionBody } from "../src/response-fast-path.js";
import { CompletionRequestSchema, CompletionResponseSchema } from "../src/schemas.js";

/** A value for a field: mostly of the right type near its bounds, sometimes anything. */
const number = fc.oneof(
  fc.constantFrom(-2.5, -2, -0, 0, 0.5, 1, 1.5, 2, 2.01, 16, 20, 21, 4096, 4097, Number.NaN, Infinity),
  fc.double(),
  fc.integer({ min: -10, max: 5000 }),
);
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string(),
  fc.boolean(),
  number,
  fc.array(fc.string(), { maxLength: 18 }),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const field = (right: fc.Arbitrary<unknown>) => fc.oneof({ weight: 30, arbitrary: right }, anything);
/** Mostly within [min, max] (integers when asked), sometimes just outside, sometimes any number. */
const within = (min: number, max: number, integer = false) =>
  fc.oneof(
    { weight: 12, arbitrary: integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max, min - 0.5, max + 0.5, max + 1) },
    { weight: 1, arbitrary: number },
  );

const fields = fc.record(
  {
    model: field(fc.constantFrom("deepseek-v4-flash", "deepseek-v4-pro", "x", "")),
    prompt: field(fc.string()),
    echo: field(fc.boolean()),
    frequency_penalty: field(within(-2, 2)),
    logprobs: field(within(0, 20, true)),
    max_tokens: field(within(1, 4096, true)),
    presence_penalty: field(within(-2, 2)),
    stop: field(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 17 }))),
    stream: field(fc.boolean()),
    stream_options: fc.oneof(
      { weight: 9, arbitrary: fc.constant(undefined) },
      fc.record({ include_usage: fc.boolean() }),
    ),
    suffix: field(fc.string()),
    temperature: field(within(0, 2)),
    top_p: field(within(0, 1)),
  },
  { requiredKeys: ["model", "prompt"] },
);
/** Now and then an unknown field too. */
const request = fc.oneof(
  { weight: 9, arbitrary: fields },
  { weight: 1, arbitrary: fc.tuple(fields, anything).map(([known, n]) => ({ ...known, n })) },
);

describe("fastRequestBody", () => {
  it("gives the schema's output, as JSON, or nothing", () => {
    let taken = 0;
    fc.assert(
      fc.property(request, (input) => {
        const fast = fastRequestBody(input as never);
        if (fast === undefined) return;
        taken += 1;
        const parsed = CompletionRequestSchema.safeParse(input);
        expect(parsed.success).toBe(true);
        expect(fast).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: 3000 },
    );
    // Not a check that cannot fail by never saying yes.
    expect(taken).toBeGreaterThan(300);
  });

  it("takes a batch record: its id left out, the model filled in, the spec's order", () => {
    const record = { max_tokens: 16, id: 7, suffix: "\n", prompt: "def f(", temperature: 0 };
    expect(fastRequestBody(record, "deepseek-v4-flash", "id")).toBe(
      '{"model":"deepseek-v4-flash","prompt":"def f(","max_tokens":16,"suffix":"\\n","temperature":0}',
    );
    expect(fastRequestBody({ ...record, model: "deepseek-v4-pro" }, "deepseek-v4-flash", "id")).toContain(
      '"model":"deepseek-v4-pro"',
    );
    // Without `skip`, the id is an unknown field: the schema decides (and refuses it).
    expect(fastRequestBody(record as never, "deepseek-v4-flash")).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>]>([
    ["stream_options", { stream: true, stream_options: { include_usage: true } }],
    ["an inherited field", Object.create({ suffix: "x" })],
    ["a class instance", new (class {})()],
    ["17 stop sequences", { stop: Array.from({ length: 17 }, () => "s") }],
    ["a stop that is not a string", { stop: ["a", 1] }],
    ["max_tokens 1.5", { max_tokens: 1.5 }],
    ["temperature Infinity", { temperature: Infinity }],
  ])("leaves %s to the schema", (_, fields) => {
    const input = Object.assign(fields, { model: "m", prompt: "p" });
    expect(fastRequestBody(input as never)).toBeUndefined();
  });
});

const usage = fc.record(
  {
    completion_tokens: field(fc.nat()),
    prompt_tokens: field(fc.nat()),
    prompt_cache_hit_tokens: field(fc.nat()),
    prompt_cache_miss_tokens: field(fc.nat()),
    total_tokens: field(fc.nat()),
    completion_tokens_details: field(
      fc.oneof(fc.constant(null), fc.record({ reasoning_tokens: fc.nat() }, { requiredKeys: [] })),
    ),
    prompt_tokens_details: anything,
  },
  { requiredKeys: ["completion_tokens", "prompt_tokens", "total_tokens"] },
);
const choice = fc.record(
  {
    text: field(fc.string()),
    index: field(fc.nat()),
    finish_reason: field(fc.constantFrom("stop", "length", "something_new", null)),
    logprobs: field(
      fc.oneof(
        fc.constant(null),
        fc.constant({ tokens: ["a"], token_logprobs: [-0.5], top_logprobs: [{ a: -0.5 }], text_offset: [0] }),
      ),
    ),
    extra: anything,
  },
  { requiredKeys: ["text"] },
);
const body = fc.record(
  {
    id: field(fc.string()),
    extra: anything,
    object: field(fc.constant("text_completion")),
    created: field(fc.nat()),
    model: field(fc.string()),
    choices: field(fc.array(choice, { maxLength: 2 })),
    usage: field(usage),
    system_fingerprint: field(fc.oneof(fc.constant(null), fc.string())),
  },
  { requiredKeys: ["id", "object", "created", "model", "choices", "usage"] },
);

describe("fastCompletionBody", () => {
  it("gives the schema's output, keys in the same order, or nothing", () => {
    let taken = 0;
    fc.assert(
      fc.property(body, (generated) => {
        // As JSON.parse gives it: own keys, no undefined.
        const json: unknown = JSON.parse(JSON.stringify(generated));
        const fast = fastCompletionBody(json);
        if (fast === undefined) return;
        taken += 1;
        const parsed = CompletionResponseSchema.safeParse(json);
        expect(parsed.success).toBe(true);
        expect(fast).toStrictEqual(parsed.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: 3000 },
    );
    expect(taken).toBeGreaterThan(100);
  });

  it("takes DeepSeek's answer, and leaves logprobs, 1e999 and __proto__ to the schema", () => {
    const answer = {
      id: "x",
      object: "text_completion",
      created: 1,
      model: "deepseek-v4-flash",
      choices: [{ text: "b", index: 0, logprobs: null, finish_reason: "stop" }],
      usage: { completion_tokens: 1, prompt_tokens: 2, prompt_cache_hit_tokens: 0, total_tokens: 3 },
    };
    expect(fastCompletionBody(answer)).toStrictEqual(CompletionResponseSchema.parse(answer));
    const text = JSON.stringify(answer);
    expect(fastCompletionBody(JSON.parse(text.replace('"logprobs":null', '"logprobs":{}')))).toBeUndefined();
    expect(fastCompletionBody(JSON.parse(text.replace('"created":1', '"created":1e999')))).toBeUndefined();
    expect(
      fastCompletionBody(JSON.parse(text.replace('"id":"x"', '"__proto__":{},"id":"x"'))),
    ).toBeUndefined();
  });
});
