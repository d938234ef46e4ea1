import type * as z from "zod/mini";

/** What zod's mini build says about every issue: it ships no locale, so we word the issues ourselves. */
const ZOD_MINI_DEFAULT = "Invalid input";

/**
 * One refused value in words, from what the schema allows: `expected one of "deepseek", "sim"`,
 * `must be at most 4096`, `expected an integer`. A message given in the schema (`z.refine(fn, "…")`) is kept.
 * The refused value itself is never quoted back: it may be an API key pasted into the wrong setting.
 */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message && issue.message !== ZOD_MINI_DEFAULT) return issue.message;
  switch (issue.code) {
    case "invalid_value":
      return issue.values.length === 1
        ? `expected ${quote(issue.values[0])}`
        : `expected one of ${issue.values.map(quote).join(", ")}`;
    case "invalid_type":
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_small":
      return bound(issue.origin, issue.minimum, issue.inclusive !== false, "at least", "greater than");
    case "too_big":
      return bound(issue.origin, issue.maximum, issue.inclusive !== false, "at most", "less than");
    case "invalid_format":
      return issue.format === "url" ? "expected a URL" : `expected a ${issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.map(quote).join(", ")}`;
    case "invalid_union": {
      // Name what each alternative expected, e.g. `expected a boolean, or an object`.
      const expected = issue.errors.flatMap((errors) => errors.slice(0, 1).map(describeIssue));
      return expected.length > 0 ? expected.join(", or ") : "matches none of the accepted forms";
    }
    case "invalid_key":
    case "invalid_element":
      return issue.issues.map(describeIssue).join("; ");
    default:
      return "invalid value";
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
  null: "null",
};

function quote(value: unknown): string {
  return typeof value === "bigint" ? String(value) : JSON.stringify(value);
}

function bound(
  origin: string,
  limit: number | bigint,
  inclusive: boolean,
  inclusiveWords: string,
  exclusiveWords: string,
): string {
  const words = inclusive ? inclusiveWords : exclusiveWords;
  const count = (noun: string) => `${limit} ${noun}${limit === 1 || limit === 1n ? "" : "s"}`;
  if (origin === "string") {
    if (inclusive && limit === 1 && inclusiveWords === "at least") return "must not be empty";
    return `must be ${words} ${count("character")}`;
  }
  if (origin === "array" || origin === "set") return `must have ${words} ${count("item")}`;
  return `must be ${words} ${limit}`;
}
