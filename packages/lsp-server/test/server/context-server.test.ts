// Repository context through the real server: a workspace on disk, documents opened as an editor would, and the
// prompts the sim received.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Position } from "vscode-languageserver-protocol";
import { CURSOR, type Session, type SessionOptions, sessions } from "../support/session.js";

const start = sessions();
let root: string;
let outside: string;

const ITEM_TS = `/** A line of an order. */
export interface Item {
  name: string;
  price: number;
  quantity: number;
}

/**
 * Formats an amount in cents as dollars.
 * @param cents - the amount
 */
export function formatPrice(cents: number, currency = "USD"): string {
  const whole = Math.floor(cents / 100);
  const rest = String(cents % 100).padStart(2, "0");
  const symbol = currency === "USD" ? "$" : currency;
  const text = \`\${symbol}\${whole}.\${rest}\`;
  return text;
}

export const TAX_RATE = 0.2;
`;

const CART_TS = `import { formatPrice, type Item } from "./item.js";

export function label(item: Item): string {
  return item.name + " " + formatPrice(${CURSOR}
}
`;

const write = (rel: string, text: string, base = root) => {
  const path = join(base, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const uri = (rel: string, base = root) => pathToFileURL(join(base, rel)).href;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-ctx-"));
  outside = mkdtempSync(join(tmpdir(), "infill-out-"));
  write("src/item.ts", ITEM_TS);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function workspaceSession(
  init: Record<string, unknown> = {},
  capabilities = {},
  sim: SessionOptions["sim"] = {},
): Promise<Session> {
  return start({
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "shop" }],
    initializationOptions: { debounceMs: 0, ...init },
    capabilities,
    sim,
  });
}

/** The prompt of the last upstream request. */
const lastPrompt = (s: Session) => (s.sim.requests.at(-1)!.body as { prompt: string }).prompt;
const lastBody = (s: Session) => s.sim.requests.at(-1)!.body as { prompt: string; suffix: string };

describe("repository context in the prompt", () => {
  it("puts the imported declaration under its path, then the current file's path, then the file", async () => {
    const s = await workspaceSession();
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    const prompt = lastPrompt(s);
    const [block, file] = prompt.split("// src/cart.ts\n");
    expect(block).toMatch(/^\/\/ src\/item\.ts\n/);
    expect(block).toContain('export function formatPrice(cents: number, currency = "USD"): string {');
    expect(block).toContain(" * Formats an amount in cents as dollars.");
    expect(file).toBe(CART_TS.slice(0, CART_TS.indexOf(CURSOR)));
  });

  it("chooses the context of an invoked request too, which does not wait for the debounce", async () => {
    const s = await workspaceSession({ debounceMs: 5000, metrics: true });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at, undefined, "invoked");
    expect(lastPrompt(s)).toContain('export function formatPrice(cents: number, currency = "USD"): string {');
    // The server's own account of its wait: none, for a request the user invoked.
    await s.until(() => s.messages("$/infill/metrics").length > 0, "metrics");
    expect(s.messages("$/infill/metrics")[0]?.params).toMatchObject({ debounceMs: 0 });
  });

  it("sends the buffer alone with context off", async () => {
    const s = await workspaceSession({ context: { enabled: false } });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    expect(lastPrompt(s)).toBe(CART_TS.slice(0, CART_TS.indexOf(CURSOR)));
  });

  it("prefers an open buffer's text over the file on disk", async () => {
    const s = await workspaceSession();
    await s.open(
      uri("src/item.ts"),
      ITEM_TS.replace("cents: number, currency", "amountInCents: bigint, currency"),
    );
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    expect(lastPrompt(s)).toContain("formatPrice(amountInCents: bigint");
  });

  it("keeps the whole request within contextTokens and the block within context.maxTokens", async () => {
    const long = Array.from(
      { length: 400 },
      (_, i) => `  const line${i} = compute(${i}, "${"x".repeat(i % 40)}");`,
    );
    const text = CART_TS.replace(
      "export function label",
      `export function big() {\n${long.join("\n")}\n}\n\nexport function label`,
    );
    for (const [contextTokens, maxTokens] of [
      [512, 1024],
      [1024, 60],
      [4096, 1024],
    ] as const) {
      const s = await workspaceSession({ contextTokens, context: { maxTokens } });
      const at = await s.open(uri("src/cart.ts"), text);
      await s.inline(uri("src/cart.ts"), at);
      const { prompt, suffix } = lastBody(s);
      expect(Math.ceil((prompt.length + suffix.length) / 3.5)).toBeLessThanOrEqual(contextTokens);
      const block = prompt.slice(0, prompt.indexOf("// src/cart.ts\n") + "// src/cart.ts\n".length);
      expect(Math.ceil(block.length / 3.5)).toBeLessThanOrEqual(Math.min(maxTokens, contextTokens / 2));
      await s.close();
    }
  });

  it("reports the context's figures in the metrics", async () => {
    const s = await workspaceSession({ metrics: true });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    await s.until(() => s.messages("$/infill/metrics").length > 0, "metrics");
    const { context } = s.messages("$/infill/metrics")[0]!.params as { context: Record<string, unknown> };
    // Item (used in the signature above) and formatPrice.
    expect(context).toMatchObject({ snippets: 2, recomputed: true });
    expect(context.tokens).toBeGreaterThan(10);
    expect(Number.isFinite(context.ms)).toBe(true);
    // Asked again in the same region: the block is reused byte for byte, not chosen anew.
    const next = await s.type(uri("src/cart.ts"), at, " ");
    await s.inline(uri("src/cart.ts"), next);
    await s.until(() => s.messages("$/infill/metrics").length > 1, "the second metrics");
    expect(s.messages("$/infill/metrics")[1]?.params).toMatchObject({
      context: { snippets: 2, recomputed: false },
    });
  });

  it("logs which snippets went in at debug level: paths and line ranges, no code", async () => {
    const s = await workspaceSession({ logLevel: "debug" });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    const lines = s.messages("window/logMessage").map((m) => (m.params as { message: string }).message);
    const line = lines.find((message) => message.startsWith("context for"));
    expect(line).toMatch(/src\/item\.ts:\d+-\d+/);
    expect(line).not.toContain("formatPrice");
  });
});

describe("monorepo packages", () => {
  /** A pnpm workspace whose packages build to an ignored dist/, as this repository's do; no node_modules. */
  const monorepo = (workspaceFile: [string, string]) => {
    write(workspaceFile[0], workspaceFile[1]);
    write(".gitignore", "node_modules/\ndist/\n");
    write(
      "packages/util/package.json",
      JSON.stringify({
        name: "@acme/util",
        exports: {
          ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
          "./strings": { types: "./dist/strings.d.ts", default: "./dist/strings.js" },
        },
      }),
    );
    write("packages/util/src/index.ts", 'export { slugify } from "./strings.js";\n');
    write(
      "packages/util/src/strings.ts",
      '/** Lower-case words joined by dashes. */\nexport function slugify(title: string, separator = "-"): string {\n  return title.toLowerCase().split(/\\s+/).join(separator);\n}\n',
    );
    // The build output exists but is ignored: its declarations must not be what the model is shown.
    write(
      "packages/util/dist/strings.d.ts",
      "export declare function slugify(title: string, separator?: string): string;\n",
    );
    write("packages/app/package.json", JSON.stringify({ name: "@acme/app" }));
  };
  const SIGNATURE = 'export function slugify(title: string, separator = "-"): string {';

  it.each([
    { manager: "pnpm", file: ["pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n"] as [string, string] },
    {
      manager: "npm",
      file: ["package.json", '{"private": true, "workspaces": ["packages/*"]}'] as [string, string],
    },
  ])("an import of another package of the workspace ($manager) reaches its source", async ({ file }) => {
    monorepo(file);
    const s = await workspaceSession();
    for (const [specifier, name] of [
      ["@acme/util", "main.ts"],
      ["@acme/util/strings", "sub.ts"],
    ] as const) {
      const doc = uri(`packages/app/src/${name}`);
      const at = await s.open(
        doc,
        `import { slugify } from "${specifier}";\n\nexport const id = slugify(${CURSOR}\n`,
      );
      await s.inline(doc, at);
      const [block] = lastPrompt(s).split(`// packages/app/src/${name}\n`);
      expect(block).toContain("// packages/util/src/strings.ts\n");
      expect(block).toContain(SIGNATURE);
      expect(block).not.toContain("declare function");
    }
  });

  it("leaves out a package the workspace globs exclude", async () => {
    monorepo(["pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n  - '!packages/util'\n"]);
    const s = await workspaceSession();
    const doc = uri("packages/app/src/main.ts");
    const at = await s.open(
      doc,
      `import { slugify } from "@acme/util";\n\nexport const id = slugify(${CURSOR}\n`,
    );
    await s.inline(doc, at);
    expect(lastPrompt(s)).not.toContain(SIGNATURE);
  });
});

describe("requests waiting for the same choice", () => {
  it("ghost text and popup asked at once, while the context is read from disk, share one upstream request", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const s = await workspaceSession();
      const file = uri(`src/cart${attempt}.ts`);
      const at = await s.open(file, CART_TS);
      const [popup, ghost] = await Promise.all([s.completion(file, at), s.inline(file, at)]);
      expect(s.sim.requests).toHaveLength(1);
      expect(ghost.items).toHaveLength(1);
      expect(popup.items.length).toBeGreaterThan(0);
      await s.close();
    }
  });
});

describe("other languages", () => {
  it("Python: a relative import's declaration under a # path line", async () => {
    write("app/__init__.py", "");
    write(
      "app/db.py",
      'import sqlite3\n\n\ndef connect(url: str, timeout: float = 5.0) -> sqlite3.Connection:\n    """Open the database at url."""\n    return sqlite3.connect(url, timeout=timeout)\n',
    );
    const s = await workspaceSession();
    const file = uri("app/main.py");
    const at = await s.open(
      file,
      `from .db import connect\n\n\ndef main():\n    conn = connect(${CURSOR}\n`,
      "python",
    );
    await s.inline(file, at);
    const prompt = lastPrompt(s);
    expect(prompt).toMatch(
      /^# app\/db\.py\ndef connect\(url: str, timeout: float = 5\.0\) -> sqlite3\.Connection:\n/,
    );
    expect(prompt).toContain('    """Open the database at url."""');
    expect(prompt).toContain("# app/main.py\nfrom .db import connect\n");
  });

  it("Go: a function of another file of the same package", async () => {
    write("go.mod", "module example.com/shop\n\ngo 1.22\n");
    write(
      "cart/price.go",
      "package cart\n\n// Total sums the prices in cents.\nfunc Total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n\treturn sum\n}\n",
    );
    const s = await workspaceSession();
    const file = uri("cart/cart.go");
    const at = await s.open(
      file,
      `package cart\n\nfunc Due(prices []int) int {\n\treturn Total(${CURSOR}\n}\n`,
      "go",
    );
    await s.inline(file, at);
    expect(lastPrompt(s)).toMatch(
      /^\/\/ cart\/price\.go\n\/\/ Total sums the prices in cents\.\nfunc Total\(prices \[\]int\) int \{/,
    );
  });
});

describe("what is never read or sent", () => {
  it("leaves out secrets, ignored files and files outside the workspace, also as open tabs", async () => {
    write(".gitignore", "generated/\n");
    write("generated/api.ts", "export function generatedCall(token: string): void {}\n");
    write(".env.ts", "export function envSecret(password: string): void {}\n");
    write("secret.ts", "export function outsideSecret(key: string): void {}\n", outside);
    symlinkSync(join(outside, "secret.ts"), join(root, "src/linked.ts"));
    const text = `import { generatedCall } from "../generated/api.js";
import { envSecret } from "../.env.js";
import { outsideSecret } from "./linked.js";
import { formatPrice } from "./item.js";

export function use(total: number) {
  generatedCall("t"); envSecret("p"); outsideSecret("k");
  return formatPrice(${CURSOR}
}
`;
    const s = await workspaceSession();
    // Open as tabs too, with the very identifiers the cursor's lines use.
    await s.open(
      uri(".env.local"),
      "generatedCall envSecret outsideSecret formatPrice total use\n",
      "dotenv",
    );
    await s.open(
      pathToFileURL(join(outside, "secret.ts")).href,
      "generatedCall envSecret outsideSecret formatPrice total use\n",
    );
    const at = await s.open(uri("src/use.ts"), text);
    await s.inline(uri("src/use.ts"), at);
    const prompt = lastPrompt(s);
    const block = prompt.slice(0, prompt.indexOf("// src/use.ts\n"));
    expect(block).toContain("export function formatPrice(");
    for (const secret of ["token: string", "password: string", "key: string", "total use"])
      expect(block).not.toContain(secret);
  });
});

describe("an open document over the size limit", () => {
  // The size limit of files on disk (1 MiB) holds for open documents too: a huge buffer's index and parse would take
  // several times its size, kept while it is open.
  const SHIPPING = "  return order.weight * zone.ratePerKilo + zone.baseFee;";
  const tab = (fillerLines: number) => {
    const lines = Array.from({ length: fillerLines }, (_, i) => `export const filler${i} = ${i};`);
    lines.splice(12, 0, "export function shippingCost(order: Order, zone: Zone): number {", SHIPPING, "}");
    return lines.join("\n");
  };
  const QUOTE = `export function quote(order: Order, zone: Zone) {\n  const fee = order.weight * zone.${CURSOR}\n}\n`;

  it.each([
    ["is context under it", 30, true],
    ["is no context over it", 40_000, false],
  ])("%s, open and once closed", async (_, fillerLines, used) => {
    const text = tab(fillerLines);
    expect(text.length > 1024 * 1024).toBe(!used);
    const s = await workspaceSession();
    const other = uri("src/shipping.ts");
    await s.open(other, text);
    const file = uri("src/quote.ts");
    const at = await s.open(file, QUOTE);
    await s.inline(file, at);
    expect(lastPrompt(s).includes(SHIPPING)).toBe(used);

    // Edited, then closed: the region edited last is kept as similar code, unless the document was too large.
    await s.type(other, { line: 13, character: 0 }, "  // cheapest first\n");
    await s.client.sendNotification("textDocument/didClose", { textDocument: { uri: other } });
    await s.type(file, at, " ");
    await s.inline(file, { line: at.line, character: at.character + 1 });
    expect(lastPrompt(s).includes("// cheapest first")).toBe(used);
  });
});

describe("cache stability", () => {
  // The imports sit more than 40 lines above the cursor: their names are not "used near the cursor" until typed.
  const filler = Array.from({ length: 45 }, (_, i) => `export const row${i} = ${i};`).join("\n");
  const BODY = `import { formatPrice } from "./item.js";

${filler}

export function receipt(lines: number[]): string {
  ${CURSOR}
}
`;

  const blockOf = (prompt: string, current: string) => prompt.slice(0, prompt.indexOf(`// ${current}\n`));

  /** Type each piece, ask after each; return the blocks sent and why each was chosen anew (from the debug log). */
  async function typeAndAsk(s: Session, file: string, at: Position, pieces: string[]) {
    const blocks: Array<{ block: string; chosen: string | undefined }> = [];
    const choices = () =>
      s
        .messages("window/logMessage")
        .map((m) => (m.params as { message: string }).message)
        .filter((message) => message.startsWith("context for"));
    for (const piece of pieces) {
      at = await s.type(file, at, piece);
      const before = choices().length;
      await s.inline(file, at);
      const chosen = choices().slice(before).at(-1);
      blocks.push({
        block: blockOf(lastPrompt(s), "src/receipt.ts"),
        chosen: chosen && /\((\w+)\)/.exec(chosen)?.[1],
      });
    }
    return { at, blocks };
  }

  it("keeps the block byte-identical while typing in one region, an imported name typed later already in it", async () => {
    const s = await workspaceSession({ logLevel: "debug" });
    const file = uri("src/receipt.ts");
    const start = await s.open(file, BODY);
    let { at, blocks } = await typeAndAsk(s, file, start, ["const ", "sum ", "= ", "lines.length; "]);
    expect(new Set(blocks.map((b) => b.block)).size).toBe(1);
    expect(blocks.map((b) => b.chosen)).toEqual(["first", undefined, undefined, undefined]);
    // Imported but not used near the cursor: looked up ahead, with what the budget leaves.
    expect(blocks[0]!.block).toContain("export function formatPrice(");
    const first = blocks[0]!.block;
    ({ at, blocks } = await typeAndAsk(s, file, at, ["\n  return formatPrice(", "sum"]));
    expect(blocks.map((b) => b.chosen)).toEqual([undefined, undefined]);
    expect(blocks.map((b) => b.block)).toEqual([first, first]);
  });

  it("chooses again for a newly typed import whose declaration was not looked up ahead", async () => {
    const s = await workspaceSession({ logLevel: "debug" });
    const file = uri("src/receipt.ts");
    // Eight imported names come first (they resolve to nothing): formatPrice is past the names looked up ahead.
    const names = Array.from({ length: 8 }, (_, i) => `missing${i}`).join(", ");
    let at = await s.open(file, `import { ${names} } from "./none.js";\n${BODY}`);
    let blocks: Array<{ block: string; chosen: string | undefined }>;
    ({ at, blocks } = await typeAndAsk(s, file, at, ["const "]));
    expect(blocks[0]!.block).not.toContain("formatPrice");
    ({ at, blocks } = await typeAndAsk(s, file, at, ["\n  return formatPrice(", "sum"]));
    expect(blocks.map((b) => b.chosen)).toEqual(["name", undefined]);
    expect(blocks[0]!.block).toContain("export function formatPrice(");
    expect(blocks[1]!.block).toBe(blocks[0]!.block);
  });

  it("grows the block at its end for a newly typed import, so the prompt cache still holds its start", async () => {
    const s = await workspaceSession({ logLevel: "debug" });
    // A tab of similar code whose path sorts after src/item.ts: the first block holds a window of it.
    await s.open(uri("src/zeta.ts"), `${filler.replaceAll(";", " + 1;")}\n`);
    const file = uri("src/receipt.ts");
    const names = Array.from({ length: 8 }, (_, i) => `missing${i}`).join(", ");
    let at = await s.open(file, `import { ${names} } from "./none.js";\n${BODY}`);
    let blocks: Array<{ block: string; chosen: string | undefined }>;
    ({ at, blocks } = await typeAndAsk(s, file, at, ["const "]));
    const before = blocks[0]!.block;
    expect(before).toMatch(/^\/\/ src\/zeta\.ts\n/);
    ({ blocks } = await typeAndAsk(s, file, at, ["\n  return formatPrice("]));
    expect(blocks.map((b) => b.chosen)).toEqual(["name"]);
    expect(blocks[0]!.block.startsWith(before)).toBe(true);
    const added = blocks[0]!.block.slice(before.length);
    expect(added).toMatch(/^\/\/ src\/item\.ts\n/);
    expect(added).toContain("export function formatPrice(");
  });

  it("reads the imports again when they are edited, and chooses again only when what they bind changed", async () => {
    const s = await workspaceSession({ logLevel: "debug" });
    const file = uri("src/receipt.ts");
    let at = await s.open(file, BODY);
    ({ at } = await typeAndAsk(s, file, at, ["const "]));
    // An edit in the import statement that binds nothing new, then one that binds TAX_RATE.
    await s.type(file, { line: 0, character: 8 }, " ");
    let blocks: Array<{ block: string; chosen: string | undefined }>;
    ({ at, blocks } = await typeAndAsk(s, file, at, ["rate "]));
    expect(blocks.map((b) => b.chosen)).toEqual([undefined]);
    await s.type(file, { line: 0, character: 21 }, ", TAX_RATE");
    ({ at, blocks } = await typeAndAsk(s, file, at, ["= ", "TAX_RATE;"]));
    // The new choice looked TAX_RATE up ahead: typing it needs none.
    expect(blocks.map((b) => b.chosen)).toEqual(["imports", undefined]);
    expect(blocks[0]!.block).toContain("export const TAX_RATE = 0.2;");
  });

  it("chooses again when a file the block came from is edited in its tab", async () => {
    const s = await workspaceSession();
    const item = uri("src/item.ts");
    await s.open(item, ITEM_TS);
    const file = uri("src/cart.ts");
    const at = await s.open(file, CART_TS);
    await s.inline(file, at);
    expect(lastPrompt(s)).toContain("formatPrice(cents: number");
    await s.type(item, { line: 11, character: 33 }, "InMinorUnits");
    // Opened again, so that the request goes upstream instead of being served from the last suggestion.
    await s.open(file, CART_TS);
    await s.inline(file, at);
    expect(lastPrompt(s)).toContain("formatPrice(centsInMinorUnits: number");
  });

  it("sees a file changed on disk without any watched-file event, within seconds", async () => {
    const s = await workspaceSession();
    const file = uri("src/cart.ts");
    const at = await s.open(file, CART_TS);
    await s.inline(file, at);
    write("src/item.ts", ITEM_TS.replace("cents: number, currency", "pennies: number, currency"));
    // Each request reuses the block and has its files re-checked in the background (at most every 2 s); an edit
    // on the blank line above keeps the requests going upstream.
    const deadline = performance.now() + 8_000;
    while (!lastPrompt(s).includes("formatPrice(pennies: number") && performance.now() < deadline) {
      await s.type(file, { line: 1, character: 0 }, " ");
      await s.inline(file, { line: at.line, character: at.character });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(lastPrompt(s)).toContain("formatPrice(pennies: number");
  });

  it("chooses again when a watched file changes on disk", async () => {
    const s = await workspaceSession(
      {},
      { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    );
    await s.until(() => s.messages("client/registerCapability").length > 0, "the file watcher registration");
    const file = uri("src/cart.ts");
    const at = await s.open(file, CART_TS);
    await s.inline(file, at);
    write("src/item.ts", ITEM_TS.replace("cents: number, currency", "pennies: number, currency"));
    await s.client.sendNotification("workspace/didChangeWatchedFiles", {
      changes: [{ uri: uri("src/item.ts"), type: 2 }],
    });
    await s.open(file, CART_TS);
    await s.inline(file, at);
    expect(lastPrompt(s)).toContain("formatPrice(pennies: number");
  });
});

describe("workspace folders", () => {
  it("reads a folder added by workspace/didChangeWorkspaceFolders, and nothing of it before", async () => {
    const lib = mkdtempSync(join(tmpdir(), "infill-lib-"));
    try {
      write(
        "money.ts",
        "export function toCents(dollars: number): number {\n  return Math.round(dollars * 100);\n}\n",
        lib,
      );
      const s = await workspaceSession({}, { workspace: { workspaceFolders: true } });
      const file = uri("src/pay.ts");
      const specifier = relative(join(root, "src"), join(lib, "money.js"));
      const text = `import { toCents } from "${specifier}";\n\nexport const due = toCents(${CURSOR}\n`;
      const at = await s.open(file, text);
      await s.inline(file, at);
      expect(lastPrompt(s)).not.toContain("dollars: number");
      await s.client.sendNotification("workspace/didChangeWorkspaceFolders", {
        event: { added: [{ uri: pathToFileURL(lib).href, name: "lib" }], removed: [] },
      });
      await s.open(file, text);
      await s.inline(file, at);
      expect(lastPrompt(s)).toContain("// lib/money.ts\nexport function toCents(dollars: number): number {");
      expect(lastPrompt(s)).toContain("// shop/src/pay.ts\n");
    } finally {
      rmSync(lib, { recursive: true, force: true });
    }
  });

  it("follows a symlink from one workspace folder into another", async () => {
    const lib = mkdtempSync(join(tmpdir(), "infill-lib-"));
    try {
      write(
        "money.ts",
        "export function toCents(dollars: number): number {\n  return Math.round(dollars * 100);\n}\n",
        lib,
      );
      symlinkSync(join(lib, "money.ts"), join(root, "src/money.ts"));
      const s = await start({
        workspaceFolders: [
          { uri: pathToFileURL(root).href, name: "shop" },
          { uri: pathToFileURL(lib).href, name: "lib" },
        ],
        initializationOptions: { debounceMs: 0 },
      });
      const file = uri("src/pay.ts");
      const at = await s.open(
        file,
        `import { toCents } from "./money.js";\n\nexport const due = toCents(${CURSOR}\n`,
      );
      await s.inline(file, at);
      expect(lastPrompt(s)).toContain(
        "// shop/src/money.ts\nexport function toCents(dollars: number): number {",
      );
    } finally {
      rmSync(lib, { recursive: true, force: true });
    }
  });
});

describe("similar code from open tabs", () => {
  it("adds the most similar window of another open document", async () => {
    const s = await workspaceSession();
    const other = Array.from({ length: 30 }, (_, i) => `export const filler${i} = ${i};`);
    other.splice(
      12,
      0,
      "export function shippingCost(order: Order, zone: Zone): number {",
      "  return order.weight * zone.ratePerKilo + zone.baseFee;",
      "}",
    );
    await s.open(uri("src/shipping.ts"), other.join("\n"));
    const file = uri("src/quote.ts");
    const at = await s.open(
      file,
      `export function quote(order: Order, zone: Zone) {\n  const fee = order.weight * zone.${CURSOR}\n}\n`,
    );
    await s.inline(file, at);
    const prompt = lastPrompt(s);
    expect(prompt).toMatch(/^\/\/ src\/shipping\.ts\n/);
    expect(prompt).toContain("return order.weight * zone.ratePerKilo + zone.baseFee;");
  });
});

describe("repository context, each provider its way", () => {
  it("llama.cpp: the snippets as input_extra chunks, only the path line before the file's own text", async () => {
    const s = await workspaceSession({ provider: "llamacpp" }, {}, { dialect: "llamacpp" });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    const body = s.sim.requests.at(-1)!.body as {
      input_prefix: string;
      input_extra: Array<{ filename: string; text: string }>;
    };
    expect(body.input_prefix).toBe(`// src/cart.ts\n${CART_TS.slice(0, CART_TS.indexOf(CURSOR))}`);
    // One chunk per file, however many of its declarations were chosen.
    expect(body.input_extra.map((chunk) => chunk.filename)).toEqual(["src/item.ts"]);
    expect(body.input_extra[0]?.text).toContain(
      'export function formatPrice(cents: number, currency = "USD"): string {',
    );
    // The path comments are the server's to lay out (with the model's file-separator tokens), not in the text.
    expect(body.input_extra[0]?.text).not.toContain("// src/item.ts");
  });

  it.each([
    ["ollama", "ollama"],
    ["codestral", "codestral"],
  ] as const)("%s: the block before the prompt, as for DeepSeek", async (provider, dialect) => {
    const s = await start({
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "shop" }],
      initializationOptions: { debounceMs: 0, provider },
      sim: { dialect },
      env: { CODESTRAL_API_KEY: "csk-ctx" },
    });
    const at = await s.open(uri("src/cart.ts"), CART_TS);
    await s.inline(uri("src/cart.ts"), at);
    const [block, file] = lastPrompt(s).split("// src/cart.ts\n");
    expect(block).toMatch(/^\/\/ src\/item\.ts\n/);
    expect(file).toBe(CART_TS.slice(0, CART_TS.indexOf(CURSOR)));
  });
});

describe("languages parsed with tree-sitter, through the built server", () => {
  const builtSession = () =>
    start({
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: "shop" }],
      initializationOptions: { debounceMs: 0 },
      built: true,
    });

  it("C: a function declared in an open header reaches the request", async () => {
    const header = write(
      "src/geometry.h",
      "#ifndef GEOMETRY_H\n#define GEOMETRY_H\n\n/** The area of a circle of radius r. */\ndouble circle_area(double r);\n\n#endif\n",
    );
    const s = await builtSession();
    await s.open(
      pathToFileURL(header).href,
      "#ifndef GEOMETRY_H\n#define GEOMETRY_H\n\n/** The area of a circle of radius r. */\ndouble circle_area(double r);\n\n#endif\n",
      "c",
    );
    const file = uri("src/main.c");
    const at = await s.open(
      file,
      `#include "geometry.h"\n\nint main(void) {\n  double a = circle_area(${CURSOR}\n}\n`,
      "c",
    );
    await s.inline(file, at);
    expect(lastPrompt(s)).toMatch(
      /^\/\/ src\/geometry\.h\n\/\*\* The area of a circle of radius r\. \*\/\ndouble circle_area\(double r\);\n/,
    );
  });

  it.each([
    {
      name: "C: a function of a header beside the file, never opened",
      header: "src/util.h",
      headerText: "/* Clamps v into [lo, hi]. */\nint clamp(int v, int lo, int hi);\n",
      file: "src/main.c",
      text: `#include <stdio.h>\n#include "util.h"\n\nint main(void) {\n  int level = clamp(${CURSOR}\n}\n`,
      languageId: "c",
      want: "// src/util.h\n/* Clamps v into [lo, hi]. */\nint clamp(int v, int lo, int hi);\n",
    },
    {
      name: "C++: a class of a header in include/, never opened",
      header: "include/shape.hpp",
      headerText: "#pragma once\n\nclass Shape {\n public:\n  explicit Shape(double area);\n};\n",
      file: "src/main.cpp",
      text: `#include "shape.hpp"\n\nint main() {\n  Shape s = Shape(${CURSOR}\n}\n`,
      languageId: "cpp",
      want: "// include/shape.hpp\nclass Shape {\n public:\n  explicit Shape(double area);\n};\n",
    },
  ])("$name", async ({ header, headerText, file, text, languageId, want }) => {
    write(header, headerText);
    const s = await builtSession();
    const at = await s.open(uri(file), text, languageId);
    await s.inline(uri(file), at);
    const [block] = lastPrompt(s).split(`// ${file}\n`);
    expect(block).toBe(want);
  });

  it("Java: a class of another open file reaches the request, its private members left out", async () => {
    const shape = `package shop;\n\n/** A priced shape. */\npublic class Shape {\n  private double secret;\n  public Shape(String name) {}\n  /** Its price in cents. */\n  public double price() {\n    double base = 100;\n    return base * 2;\n  }\n  private void hidden() {\n    secret = 1;\n  }\n}\n`;
    write("src/shop/Shape.java", shape);
    const s = await builtSession();
    await s.open(uri("src/shop/Shape.java"), shape, "java");
    const file = uri("src/shop/Main.java");
    const at = await s.open(
      file,
      `package shop;\n\nclass Main {\n  void run() {\n    Shape s = new Shape(${CURSOR}\n  }\n}\n`,
      "java",
    );
    await s.inline(file, at);
    const [block] = lastPrompt(s).split("// src/shop/Main.java\n");
    expect(block).toContain("// src/shop/Shape.java\n/** A priced shape. */\npublic class Shape {");
    expect(block).toContain(
      "  public Shape(String name) {}\n  /** Its price in cents. */\n  public double price() {\n",
    );
    expect(block).not.toContain("secret");
    expect(block).not.toContain("hidden");
  });
});
