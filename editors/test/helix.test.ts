import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { type Sim, startSim } from "@infill/sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askedAt, contextPrompts, fixture, nextEditRequests, renameSample, snippetsOf } from "./fixture.js";
import { waitUntil } from "./poll.js";
import { nextEditConfig, readmeConfig } from "./readme.js";
import {
  createSandbox,
  EDITORS,
  PROVISION_TIMEOUT_MS,
  provisionEditors,
  requireBuiltServer,
  type Sandbox,
} from "./sandbox.js";
import { Tmux } from "./tmux.js";

const run = promisify(execFile);

const SHIPPED = join(EDITORS, "helix/languages.toml");

/** The languages the issue asks for, by Helix language name. */
const REQUIRED_LANGUAGES = ["typescript", "javascript", "python", "rust", "go", "lua", "c", "cpp"];

// The sim copies what followed the nearest earlier occurrence of the text before the cursor: after
// `const beta = comp` that is the rest of the `alpha` line, which Helix's word completion cannot produce.
const SAMPLE = fixture(`export function compute(n: number, side: string): string {
  return \`\${side}:\${n}\`;
}

const alpha = compute(41, "left");
const beta = co│

export const pair = [alpha, beta];
`);
const TYPED = "mp";
const SUGGESTION = `compute(41, "left");`;
/** A row of the completion menu: the label, then the item kind Helix prints for `CompletionItemKind.Text`. */
const MENU_ROW = /compute\(41, "left"\);\s+text\b/;

// Repository context: src/room.ts uses rectangleArea from lib/shapes.ts, which Helix never opens. Typing `(` after
// the name and opening the menu (C-x) sends a completion request whose prompt must carry the declaration.
const SHAPES_PATH = "lib/shapes.ts";
const SHAPES_DECLARATION = "export function rectangleArea(width: number, height: number): number {";
const SHAPES = `/** The area of a rectangle, in square units. */
${SHAPES_DECLARATION}
  return width * height;
}
`;
const ROOM_PATH = "src/room.ts";
const ROOM = fixture(`import { rectangleArea } from "../lib/shapes.js";

export const floor = rectangleArea│
`);

const withoutAnsi = stripVTControlCharacters;

/** The table of infill's settings in the shipped languages.toml, and the retention check the tests set in it. */
const CONFIG_TABLE = "[language-server.infill.config]\n";
const RETENTION_SECONDS = 3;
/** What infill's item inserts after `const beta = comp`, and what a second one on a new line inserts. */
const TAKEN = 'ute(41, "left");';

/** Helix's status line: the row that starts with the mode. */
const statusLine = (screen: string) => screen.split("\n").find((row) => /^ (NOR|INS|SEL) /.test(row)) ?? "";
const mode = (screen: string) => statusLine(screen).slice(1, 4);

/**
 * Run `:lsp-workspace-command infill.status` until the message it makes the server send, on the status line,
 * matches `pattern` (the figures may not be counted yet), and return that line. Helix shows nothing of a command's
 * result: the server says it as a message.
 */
async function statusMessage(
  hx: Tmux,
  what: string,
  pattern: RegExp,
  context: () => Promise<string>,
): Promise<string> {
  const shown = async () => {
    const found = (await hx.screen()).split("\n").find((row) => row.startsWith("infill: "));
    return found && pattern.test(found) ? found : undefined;
  };
  return waitUntil(
    what,
    async () => {
      await hx.type(":lsp-workspace-command infill.status");
      await hx.keys("Enter");
      // The message comes a moment after Enter, and typing `:` again would cover it: look for a while before
      // asking again.
      return waitUntil(`${what} (on screen)`, shown, { timeoutMs: 2_000 }).catch(() => undefined);
    },
    { describe: context, timeoutMs: 30_000 },
  );
}

/** The language servers `hx --health <language>` lists, in order. */
async function healthServers(hx: string, env: NodeJS.ProcessEnv, language: string): Promise<string[]> {
  const { stdout } = await run(hx, ["--health", language], { env, timeout: 20_000 });
  const lines = withoutAnsi(stdout).split("\n");
  const start = lines.findIndex((line) => line.startsWith("Configured language servers:"));
  if (start === -1) throw new Error(`hx --health ${language} lists no language servers:\n${stdout}`);
  const servers: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\s+[✓✘]\s+([^:]+):/.exec(line);
    if (!match) break;
    servers.push(match[1]!);
  }
  return servers;
}

/** The params of the last `initialize` Helix sent to infill, from its verbose log. */
function lastInitialize(log: string): { rootUri?: unknown; workspaceFolders?: unknown } | undefined {
  const line = log
    .split("\n")
    .filter((l) => /infill -> \{.*"method":"initialize"/.test(l))
    .at(-1);
  return line ? JSON.parse(line.slice(line.indexOf("infill -> ") + "infill -> ".length)).params : undefined;
}

describe("Helix 25.07 with the shipped languages.toml", () => {
  let bin: string;
  let sim: Sim;
  let sandbox: Sandbox;

  beforeAll(async () => {
    requireBuiltServer();
    bin = await provisionEditors("helix", "tmux");
    sim = await startSim();
    sandbox = await createSandbox("helix", sim.url);
    await mkdir(join(sandbox.config, "helix"), { recursive: true });
    // The shipped file, with a retention check 3 s after a take instead of 30 s, 2, 5 and 10 min.
    const shipped = await readFile(SHIPPED, "utf8");
    expect(shipped).toContain(CONFIG_TABLE);
    await writeFile(
      join(sandbox.config, "helix/languages.toml"),
      shipped.replace(CONFIG_TABLE, `${CONFIG_TABLE}usage = { retentionChecks = [${RETENTION_SECONDS}] }\n`),
    );
    // A normal project: Helix takes the folder holding `.git` as its workspace.
    await mkdir(join(sandbox.project, ".git"));
    await mkdir(join(sandbox.project, "lib"));
    await mkdir(join(sandbox.project, "src"));
    await writeFile(join(sandbox.project, SHAPES_PATH), SHAPES);
    await writeFile(join(sandbox.project, ROOM_PATH), ROOM.text);
  }, PROVISION_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("adds infill after each language's usual servers, which stay as Helix ships them", async () => {
    const shipped = await readFile(SHIPPED, "utf8");
    const languages = [...shipped.matchAll(/^\[\[language\]\]\r?\nname = "([^"]+)"/gm)].map((m) => m[1]!);
    expect(languages).toEqual(expect.arrayContaining(REQUIRED_LANGUAGES));

    const hx = join(bin, "hx");
    // The same sandbox without the shipped file: Helix's built-in configuration.
    const builtIn = { ...sandbox.env, XDG_CONFIG_HOME: join(sandbox.dir, "no-config") };
    for (const language of languages) {
      const usual = await healthServers(hx, builtIn, language);
      expect(usual, `Helix's own servers for ${language}`).not.toContain("infill");
      expect(await healthServers(hx, sandbox.env, language), language).toEqual([...usual, "infill"]);
    }
    const { stdout } = await run(hx, ["--health", "typescript"], { env: sandbox.env });
    expect(withoutAnsi(stdout)).toContain(`✓ infill: ${join(sandbox.dir, "bin/infill-lsp")}`);
  });

  it("offers the completion from @infill/sim in the menu, once accepted it is in the saved file; :lsp-workspace-command infill.status counts the menu accept (Helix runs no item command) and tells a kept one from a deleted one", async () => {
    await completeAndSave(bin, sandbox, sim, "infill-helix", async (hx, log) => {
      // Helix 25.07 does not run a completion item's `command`: the server infers the accept from the edit that put
      // the suggestion's text at its place.
      const status = (what: string, pattern: RegExp) => statusMessage(hx, what, pattern, log.tail);
      await status(
        "the menu accept counted",
        /^infill: \d+ requests?, [\d,]+ prompt tokens \(\d+ % cached\), est\. \$0\.\d+, taken 1 of 1 \(100 %\)/,
      );
      const text = await log.read();
      expect(text).toMatch(
        /infill -> .*"method":"workspace\/executeCommand","params":\{"arguments":\[\],"command":"infill.status"\}/,
      );
      expect(text).not.toMatch(/"method":"workspace\/executeCommand"[^\n]*"infill\.accepted"/);

      // A second accept, on a new line below, deleted at once (`x` selects the line, `d` deletes it).
      await hx.type("o");
      await hx.waitFor("a new line in insert mode", (screen) => mode(screen) === "INS");
      await hx.type("const gamma = comp");
      await hx.waitFor("infill's item for gamma", (screen) => MENU_ROW.test(screen), { context: log.tail });
      await hx.keys("Tab");
      await hx.waitFor("the item applied", (screen) => screen.includes(`const gamma = comp${TAKEN}`));
      await hx.keys("Enter");
      await hx.keys("Escape");
      await hx.waitFor("normal mode", (screen) => mode(screen) === "NOR" && !MENU_ROW.test(screen));
      await hx.type("xd");
      await hx.waitFor("the line deleted", (screen) => !screen.includes("const gamma"));
      // Both checked at 3 s: one kept whole, one gone.
      const line = await status(
        "both accepts checked",
        new RegExp(`taken 2 of 2 \\(100 %\\), ${2 * TAKEN.length} chars kept 50 % at ${RETENTION_SECONDS} s`),
      );
      expect(line).toMatch(/^infill: \d+ requests, /);
    });
  }, 120_000);

  it("sends the project as workspace folder, and the declaration of a function from a file it never opened", async () => {
    const { hx, readLog, logTail } = await openInHelix(
      bin,
      sandbox,
      "infill-helix-context",
      ROOM_PATH,
      "export const floor",
    );
    try {
      const uri = pathToFileURL(sandbox.project).href;
      expect(lastInitialize(await readLog())).toMatchObject({
        rootUri: uri,
        workspaceFolders: [{ name: "project", uri }],
      });

      await hx.type(`${ROOM.line}ggA(`);
      await hx.waitFor("`(` typed", (s) => s.includes("rectangleArea(") && mode(s) === "INS");
      await hx.keys("C-x");
      const before = `${ROOM.before}(`;
      const prompts = await waitUntil(
        "the completion request with the cursor after `rectangleArea(`",
        async () => {
          const found = contextPrompts(sim, ROOM_PATH, before);
          return found.length > 0 ? found : undefined;
        },
        { describe: logTail },
      );
      for (const { block, file } of prompts) {
        expect(file).toBe(before);
        expect(snippetsOf(block, SHAPES_PATH)).toContain(SHAPES_DECLARATION);
      }
    } finally {
      await hx.kill();
    }
  });
});

describe("Helix 25.07 with the README's Ollama configuration", () => {
  let bin: string;
  let sim: Sim;
  let sandbox: Sandbox;

  beforeAll(async () => {
    requireBuiltServer();
    bin = await provisionEditors("helix", "tmux");
    sim = await startSim({ dialect: "ollama" });
    // INFILL_BASE_URL points the server at the sim, as the README's settings leave `baseUrl` to its default.
    sandbox = await createSandbox("helix-ollama", sim.url);
    await mkdir(join(sandbox.config, "helix"), { recursive: true });
    const shipped = await readFile(SHIPPED, "utf8");
    const config = /^\[language-server\.infill\.config\][\s\S]*?(?=^\[\[language\]\])/m;
    expect(shipped).toMatch(config);
    await writeFile(
      join(sandbox.config, "helix/languages.toml"),
      shipped.replace(config, `${readmeConfig("helix")}\n`),
    );
  }, PROVISION_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("completes from Ollama's /api/generate with the README's model", async () => {
    await completeAndSave(bin, sandbox, sim, "infill-helix-ollama");
    expect(sim.requests.map((r) => (r.body as { model?: unknown }).model)).toContain(
      "qwen2.5-coder:1.5b-base",
    );
  });
});

describe("Helix 25.07 with next edits on (editors/README.md's setting), through code actions", () => {
  let bin: string;
  let sim: Sim;
  let sandbox: Sandbox;
  const sample = renameSample("typescript");

  beforeAll(async () => {
    requireBuiltServer();
    bin = await provisionEditors("helix", "tmux");
    sim = await startSim();
    sandbox = await createSandbox("helix-next-edit", sim.url);
    await mkdir(join(sandbox.config, "helix"), { recursive: true });
    await mkdir(join(sandbox.project, ".git"));
    // The README's setting merged into the shipped table; the test's pause after an edit is 1 s instead of 300 ms,
    // so that a loaded machine never makes one between the keys of the rename (each would ask the sim).
    const snippet = nextEditConfig("helix");
    expect(snippet.startsWith(CONFIG_TABLE)).toBe(true);
    const setting = snippet
      .slice(CONFIG_TABLE.length)
      .replace("enabled = true", "enabled = true, debounceMs = 1000");
    expect(setting).toContain("debounceMs = 1000");
    const shipped = await readFile(SHIPPED, "utf8");
    await writeFile(
      join(sandbox.config, "helix/languages.toml"),
      shipped.replace(CONFIG_TABLE, CONFIG_TABLE + setting),
    );
    await writeFile(join(sandbox.project, "average.ts"), sample.text);
  }, PROVISION_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("renames at the declaration, then space a, Enter takes the nearest next edit, three times without moving: the saved file holds the whole rename, from one request, each accept counted", async () => {
    const { hx, readLog, logTail } = await openInHelix(
      bin,
      sandbox,
      "infill-helix-next-edit",
      "average.ts",
      "let total = 0;",
      160,
    );
    try {
      await renameInHelix(hx, sim, logTail);
      const steps: Array<[number, string]> = [
        [3, "  for (const value of values) sum += value;"],
        [4, '  console.log("Σ ≈", sum);'],
        [5, "  return sum / values.length;"],
      ];
      for (const [line, renamed] of steps) {
        const title = `Next edit (line ${line}): replace "total" with "sum"`;
        await hx.type(" a");
        // Invoked: the server waits for the pause's request the first time (the model's time), then from memory.
        await hx.waitFor(`the code action menu with "${title}"`, (s) => s.includes(title), {
          context: logTail,
          timeoutMs: 20_000,
        });
        // The rest of the rename is the same answer: no request of its own.
        expect(nextEditRequests(sim)).toHaveLength(1);
        await hx.keys("Enter");
        const done = (s: string) => s.includes(renamed) && !s.includes(title) && mode(s) === "NOR";
        await hx.waitFor(`line ${line} renamed`, done, { context: logTail });
      }
      await hx.type(":w");
      await hx.keys("Enter");
      await waitForFile(hx, join(sandbox.project, "average.ts"), sample.renamed);

      // Each action's edit applied, then its command run: shown (listed in the menu) and taken, three of three.
      await statusMessage(
        hx,
        "the next edits counted",
        /next edits: \d+ requests?, est\. \$[\d.]+, taken 3 of 3 \(100 %\)/,
        logTail,
      );
      const sent = sentBy(await readLog());
      // Helix asks for the primary selection, invoked; the cursor stayed on the declaration's line.
      const asked = sent("textDocument/codeAction");
      expect(asked.map((p) => [p.context.triggerKind, p.range.start.line, p.range.end.line])).toEqual([
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
      ]);
      const accepted = sent("workspace/executeCommand").filter(
        (p) => p.command === "infill.nextEditAccepted",
      );
      expect(new Set(accepted.map((p) => p.arguments?.[0])).size).toBe(3);
      // Once the answer is used up, the last accept is an edit like any other: after its pause the server asks what
      // comes next (the sim has nothing more).
      await waitUntil(
        "the request after the last accept",
        async () => (nextEditRequests(sim).length >= 2 ? true : undefined),
        { describe: logTail },
      );
      expect(nextEditRequests(sim)).toHaveLength(2);
    } finally {
      await hx.kill();
    }
  }, 120_000);
});

/** A row of Helix's completion menu with infill's item after `let sum`: its label, then the kind `text`. */
const SUM_COMPLETION_ROW = /\ssum\b.*\stext\s*$/m;

/**
 * Rename `total` at its declaration as a user does: search it (the declaration's is the first), change it, type
 * `sum`, and pause: Helix's completion menu opens with infill's item (the next edit's request gives way to it), and
 * Escape closes it.
 */
async function renameInHelix(hx: Tmux, sim: Sim, logTail: () => Promise<string>): Promise<void> {
  await hx.type("/total");
  await hx.keys("Enter");
  await hx.waitFor("`total` selected on line 2", (s) => mode(s) === "NOR" && statusLine(s).includes(" 2:"));
  await hx.type("csum");
  await hx.waitFor(
    "`sum` typed, and infill's item in the completion menu",
    (s) => mode(s) === "INS" && s.includes("  let sum = 0;") && SUM_COMPLETION_ROW.test(s),
    { context: logTail },
  );
  expect(sim.requests.some((r) => r.path === "/beta/completions")).toBe(true);
  await hx.keys("Escape");
  await hx.waitFor("normal mode, the menu closed", (s) => mode(s) === "NOR" && !SUM_COMPLETION_ROW.test(s));
}

/** Wait until `file` holds `expected`. */
async function waitForFile(hx: Tmux, file: string, expected: string): Promise<void> {
  let saved = "";
  await waitUntil(
    "the file to be written",
    async () => {
      // Helix writes through a temporary file and renames it over the original, so for a moment there is none.
      saved = await readFile(file, "utf8").catch(() => "");
      return saved === expected ? true : undefined;
    },
    { describe: async () => `the file is:\n${saved}\nthe screen:\n${await hx.screen()}` },
  );
}

/** The params of the messages Helix sent to infill, by method, from its verbose log. */
function sentBy(log: string) {
  const lines = log.split("\n").filter((l) => l.includes("infill -> {"));
  // biome-ignore lint/suspicious/noExplicitAny: JSON from Helix's log, checked by the assertions
  return (method: string): any[] =>
    lines
      .filter((l) => l.includes(`"method":"${method}"`))
      .map((l) => JSON.parse(l.slice(l.indexOf("infill -> ") + "infill -> ".length)).params);
}

/**
 * Type after `const beta = co` in Helix, take infill's item from the menu, accept it and save the file; then
 * `andThen`, with Helix still running.
 */
async function completeAndSave(
  bin: string,
  sandbox: Sandbox,
  sim: Sim,
  socket = "infill-helix",
  andThen?: (hx: Tmux, log: { read(): Promise<string>; tail(): Promise<string> }) => Promise<void>,
): Promise<void> {
  const file = join(sandbox.project, "sample.ts");
  await writeFile(file, SAMPLE.text);
  const log = join(sandbox.cache, "helix/helix.log");
  const readLog = () => readFile(log, "utf8").catch(() => "");
  const logTail = async () =>
    `helix.log, last lines:\n${(await readLog()).split("\n").slice(-25).join("\n")}`;
  const hx = await Tmux.start({
    bin,
    socket,
    env: sandbox.env,
    cwd: sandbox.project,
    command: [join(bin, "hx"), "-v", "sample.ts"],
    // Wide enough for the whole status message (figures with a retention check run past 120 columns).
    width: 200,
  });
  try {
    await hx.waitFor("the file in normal mode", (s) => s.includes("const beta = co") && mode(s) === "NOR", {
      context: logTail,
    });
    // Helix sends didOpen to a server once it has initialized it; a completion before that would not ask infill.
    await waitUntil(
      "infill-lsp to get the document",
      async () => (/infill -> .*"method":"textDocument\/didOpen"/.test(await readLog()) ? true : undefined),
      { describe: logTail },
    );

    // Go to the cursor's line and append at its end.
    await hx.type(`${SAMPLE.line}ggA`);
    const at = `${SAMPLE.line}:${SAMPLE.column + 1}`;
    await hx.waitFor(`insert mode at ${at}`, (s) => mode(s) === "INS" && statusLine(s).includes(` ${at}`));
    // Typing word characters triggers completion (completion-trigger-len 2, after completion-timeout 250 ms).
    await hx.type(TYPED);
    await hx.waitFor("the infill item in the completion menu", (s) => MENU_ROW.test(s), {
      context: logTail,
    });
    expect(askedAt(sim, `const beta = co${TYPED}`, SAMPLE.after)).toBe(true);

    // Select the item (Tab), accept it (Enter), back to normal mode, write.
    await hx.keys("Tab");
    await hx.waitFor("the item applied", (s) => s.includes(`const beta = ${SUGGESTION}`));
    await hx.keys("Enter");
    await hx.waitFor("the menu closed", (s) => !MENU_ROW.test(s) && s.includes(`const beta = ${SUGGESTION}`));
    // Sent separately: Escape directly followed by ':' would read as Alt-:.
    await hx.keys("Escape");
    await hx.waitFor("normal mode", (s) => mode(s) === "NOR");
    await hx.type(":w");
    await hx.keys("Enter");

    const expected = SAMPLE.text.replace("const beta = co\n", `const beta = ${SUGGESTION}\n`);
    expect(expected).not.toBe(SAMPLE.text);
    await waitForFile(hx, file, expected);
    await andThen?.(hx, { read: readLog, tail: logTail });
  } finally {
    await hx.kill();
  }
}

/**
 * Start Helix on `file` (relative to the project) in tmux `socket`, and wait until the screen shows `shown` in
 * normal mode and infill-lsp has the document: Helix sends didOpen to a server once it has initialized it, and a
 * completion before that would not ask infill.
 */
async function openInHelix(
  bin: string,
  sandbox: Sandbox,
  socket: string,
  file: string,
  shown: string,
  width?: number,
): Promise<{ hx: Tmux; readLog: () => Promise<string>; logTail: () => Promise<string> }> {
  const readLog = () => readFile(join(sandbox.cache, "helix/helix.log"), "utf8").catch(() => "");
  const logTail = async () =>
    `helix.log, last lines:\n${(await readLog()).split("\n").slice(-25).join("\n")}`;
  const hx = await Tmux.start({
    bin,
    socket,
    env: sandbox.env,
    cwd: sandbox.project,
    command: [join(bin, "hx"), "-v", file],
    ...(width === undefined ? {} : { width }),
  });
  await hx.waitFor("the file in normal mode", (s) => s.includes(shown) && mode(s) === "NOR", {
    context: logTail,
  });
  const uri = pathToFileURL(join(sandbox.project, file)).href;
  await waitUntil(
    "infill-lsp to get the document",
    async () =>
      (await readLog())
        .split("\n")
        .some(
          (line) =>
            line.includes("infill -> {") &&
            line.includes('"method":"textDocument/didOpen"') &&
            line.includes(`"uri":"${uri}"`),
        )
        ? true
        : undefined,
    { describe: logTail },
  );
  return { hx, readLog, logTail };
}
