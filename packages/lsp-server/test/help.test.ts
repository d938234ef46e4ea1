import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { markdownTable, plainText, usage } from "../src/help.js";
import { defaultSettings } from "../src/settings/settings.js";
import { FIELDS } from "../src/settings/settings-schema.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const settingsRows = markdownTable(readme, "Settings");
/** Setting name → [meaning, default], with the Markdown left in. */
const rows = new Map(
  settingsRows.map(([name = "", meaning = "", fallback = ""]) => [plainText(name), [meaning, fallback]]),
);

describe("markdownTable", () => {
  const doc = [
    "# x",
    "## Other",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "## Settings",
    "Some text.",
    "",
    "| name | meaning |",
    "|---|---|",
    "| `a` | one \\| two |",
    "| `b` | [link](https://example.com) |",
    "",
    "| second | table |",
    "## Next",
  ].join("\n");

  it("reads the body rows of the section's first table, escaped pipes kept in their cell", () => {
    expect(markdownTable(doc, "Settings")).toEqual([
      ["`a`", "one | two"],
      ["`b`", "[link](https://example.com)"],
    ]);
    expect(markdownTable(doc, "Other")).toEqual([["1", "2"]]);
    expect(markdownTable(doc, "Missing")).toEqual([]);
  });

  it("reduces code spans and links to their text", () => {
    expect(plainText("`a` or [the docs](https://x.y/z) `b`")).toBe("a or the docs b");
  });
});

// The README's settings table is the one place the settings are described (npm shows it, --help prints it): these
// tests keep it in step with the schema, so a new setting needs a row, and a removed one loses its row.
describe("the README's settings table", () => {
  it("has a row for every setting of the schema (or rows for its parts, `key.part`)", () => {
    const missing = Object.keys(FIELDS).filter(
      (key) => !rows.has(key) && ![...rows.keys()].some((name) => name.startsWith(`${key}.`)),
    );
    expect(missing, "settings without a row in packages/lsp-server/README.md").toEqual([]);
  });

  it("has no row for a setting the schema does not know", () => {
    const unknown = [...rows.keys()].filter((name) => !(name.split(".")[0]! in FIELDS));
    expect(unknown, "rows naming no setting").toEqual([]);
  });

  it("names every allowed value of each enum setting", () => {
    for (const [key, schema] of Object.entries(FIELDS)) {
      if (!("options" in schema)) continue;
      const [meaning = ""] = rows.get(key) ?? [];
      for (const value of schema.options as readonly string[]) {
        expect(meaning, `${key}'s row should mention \`${value}\``).toContain(`\`${value}\``);
      }
    }
  });

  it("gives each setting's built-in default", () => {
    const defaults = defaultSettings({}) as Record<string, unknown>;
    for (const [name, [, fallback = ""]] of rows) {
      const value = name
        .split(".")
        .reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part], defaults);
      const shown =
        typeof value === "object" && value !== null && Object.keys(value).length === 0
          ? JSON.stringify(value)
          : ["string", "number", "boolean"].includes(typeof value)
            ? String(value)
            : undefined;
      if (shown === undefined) continue;
      // As a word of its own: a default of 0 is not shown by "10".
      const word = new RegExp(`(^|[^\\w.-])${shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w.-])`);
      expect(plainText(fallback), `default of ${name}`).toMatch(word);
    }
  });
});

describe("usage (infill-lsp --help)", () => {
  const text = usage("1.2.3", readme);

  it("lists every setting and environment variable, within 80 columns", () => {
    expect(text).toMatch(/^infill-lsp 1\.2\.3: /);
    for (const key of Object.keys(FIELDS)) expect(text).toMatch(new RegExp(`^  ${key}\\b`, "m"));
    for (const name of ["DEEPSEEK_API_KEY", "INFILL_BASE_URL", "INFILL_MODEL", "HTTPS_PROXY"]) {
      expect(text).toContain(`  ${name}`);
    }
    const tooLong = text.split("\n").filter((line) => line.length > 80);
    expect(tooLong).toEqual([]);
    expect(text).not.toContain("`");
  });

  it("puts each default in brackets after the meaning", () => {
    expect(text).toMatch(/^ {2}maxTokens +most tokens generated per request \(1–4096\) \[default: 256\]$/m);
  });
});
