import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
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

// js-mode: Emacs has no TypeScript mode without tree-sitter grammars. The sim continues `const beta = comp` with
// the rest of the `alpha` line.
const SAMPLE = fixture(`function compute(n, side) {
  return side + ":" + n;
}

const alpha = compute(41, "left");
const beta = co│

module.exports = { alpha, beta };
`);
const TYPED = "mp";
const SUGGESTION = `compute(41, "left");`;
/** The retention check the first session asks for, in seconds after a take. */
const RETENTION_SECONDS = 3;
// Repository context: in the same project (a git repository), src/label.js uses inchesToCm from lib/units.js, which
// Emacs never visits. `completion-at-point` right after the `(` typed there must send its declaration.
const UNITS_PATH = "lib/units.js";
const UNITS_DECLARATION = "export function inchesToCm(inches, digits = 1) {";
const UNITS = `/** Converts a length in inches to centimetres, rounded to \`digits\` decimals. */
${UNITS_DECLARATION}
  return Number((inches * 2.54).toFixed(digits));
}
`;
const LABEL_PATH = "src/label.js";
const LABEL = fixture(`import { inchesToCm } from "../lib/units.js";

export const width = inchesToCm│
`);

/** What emacs-eglot-session.el reports. */
interface Session {
  compileLog: string | null;
  entries: string[][];
  firstIsInfill: boolean;
  contacts: Record<
    "usualAndRass" | "usualWithoutRass" | "companionOff" | "companionGiven",
    string[] | string
  >;
  majorMode: string;
  managed: boolean;
  serverName: string | null;
  /** The class of Eglot's connection (infill.el's own, which answers infill/typeDefinitions). */
  serverClass: string;
  capf: boolean;
  line: string;
  contextLine: string;
  point: number;
  /** The *infill-status* buffer after `M-x infill-status`. */
  status: string;
  /** What asking for the status says in a buffer no server manages. */
  statusElsewhere: string;
  /** The line completed below the first, then deleted (with INFILL_TEST_RETENTION). */
  gammaLine: string | null;
  /** At the longest retention horizon: the characters checked and those still there. */
  retention: { seconds: number | null; checkedChars: number | null; retainedChars: number | null };
  /** The server's count of suggestions taken whole, and of characters taken. */
  accepted: number;
  acceptedChars: number;
  events: string;
}

describe("Emacs 30 with the shipped infill.el, through Eglot", () => {
  let sim: Sim;
  let sandbox: Sandbox;
  let file: string;
  let session: Session;

  beforeAll(async () => {
    requireBuiltServer();
    sim = await startSim();
    sandbox = await createSandbox("emacs", sim.url);
    ({ file, session } = await runSession(sandbox, { INFILL_TEST_RETENTION: String(RETENTION_SECONDS) }));
  }, PROVISION_TIMEOUT_MS + 70_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("byte-compiles without a warning (lsp-mode not installed)", () => {
    expect(session.compileLog).toBeNull();
  });

  it("puts infill in front of eglot-server-programs, grouping modes as Eglot's own entries do", () => {
    expect(session.firstIsInfill).toBe(true);
    const groupOf = (mode: string) => session.entries.find((modes) => modes.includes(mode));
    expect(groupOf("js-mode")).toEqual(
      expect.arrayContaining(["js-ts-mode", "typescript-ts-mode", "tsx-ts-mode"]),
    );
    expect(groupOf("c-mode")).toEqual(expect.arrayContaining(["c++-mode", "c-ts-mode", "c++-ts-mode"]));
    for (const mode of ["python-mode", "rust-ts-mode", "go-ts-mode", "lua-ts-mode"]) {
      expect(groupOf(mode), mode).toBeDefined();
      expect(groupOf(mode), mode).not.toContain("js-mode");
    }
  });

  it("runs infill next to the usual server through rass, or alone", () => {
    const infill = ["infill-lsp", "--stdio", ":initializationOptions", "infill-initialization-options"];
    expect(session.contacts.usualAndRass).toEqual([
      "infill-eglot-server",
      "rass",
      "--",
      "typescript-language-server",
      "--stdio",
      "--",
      ...infill,
    ]);
    expect(session.contacts.companionGiven).toEqual([
      "infill-eglot-server",
      "rass",
      "--",
      "biome",
      "lsp-proxy",
      "--",
      ...infill,
    ]);
    expect(session.contacts.companionOff).toEqual(["infill-eglot-server", ...infill]);
    // Never silently instead of an installed usual server.
    expect(session.contacts.usualWithoutRass).toMatch(/^user-error: .*needs rass/);
  });

  it("connects to infill-lsp with the buffer's language id, infill-settings and the workspace configuration", () => {
    expect(session.majorMode).toBe("js-mode");
    expect(session.managed).toBe(true);
    expect(session.serverName).toBe("infill-lsp");
    expect(session.capf).toBe(true);
    expect(session.events).toContain(
      `"initializationOptions":{"infill":{"maxTokens":64,"lineMode":"auto","usage":{"retentionChecks":[${RETENTION_SECONDS}]}}}`,
    );
    expect(session.events).toMatch(/textDocument\/didOpen .*"languageId":"javascript"/);
    // The `infill` section of eglot-workspace-configuration, as the server pulls it.
    expect(session.events).toMatch(/--> workspace\/configuration\[\d+\] .*"result":\[\{"debounceMs":0\}\]/);
    // The server refuses unknown or invalid settings with a message: there must be none.
    expect(session.events).not.toContain("window/showMessage");
  });

  it("completes at point with the suggestion from @infill/sim, and saves it", async () => {
    expect(askedAt(sim, `const beta = co${TYPED}`, SAMPLE.after)).toBe(true);
    expect(session.line, `the Eglot events were:\n${session.events}`).toBe(`const beta = ${SUGGESTION}`);
    expect(session.point).toBe(session.line.length);
    const expected = SAMPLE.text.replace("const beta = co\n", `const beta = ${SUGGESTION}\n`);
    expect(expected).not.toBe(SAMPLE.text);
    expect(await readFile(file, "utf8")).toBe(expected);
  });

  it("sends the git repository as the workspace, and saves and watched files reach the server", () => {
    const initialize = session.events.split("\n").find((line) => line.includes("--> initialize["));
    expect(initialize, "the initialize request in the Eglot events").toBeDefined();
    const uri = pathToFileURL(sandbox.project).href;
    expect(JSON.parse(initialize!.slice(initialize!.indexOf("{"))).params).toMatchObject({
      rootUri: uri,
      workspaceFolders: [{ uri }],
    });
    expect(session.events).toContain(`--> textDocument/didSave {`);
    // The server registers its file watchers and Eglot accepts them (it answers an error when it cannot list the
    // project's files, e.g. in a `.git` folder that is not a repository).
    expect(session.events).toMatch(
      /--> client\/registerCapability\[\d+\] \{"jsonrpc":"2.0","id":\d+,"result":null\}/,
    );
  });

  it("answers infill/typeDefinitions, offered at initialize: empty, with infill-lsp alone (no other server to ask)", () => {
    expect(session.serverClass).toBe("infill-eglot-server");
    const initialize = session.events.split("\n").find((line) => line.includes("--> initialize["));
    const params = JSON.parse(initialize!.slice(initialize!.indexOf("{"))).params;
    expect(params.capabilities.experimental).toEqual({ infill: { typeDefinitions: true } });
    // `Math.` typed: infill-lsp asked where `Math`'s type is declared, and Eglot answered at once, asking nobody
    // (the server behind it offers no typeDefinition: it is infill-lsp itself).
    expect(session.events).toMatch(
      /<-- infill\/typeDefinitions\[\d+\] .*"positions":\[\{"line":\d+,"character":0\}\]/,
    );
    expect(session.events).toMatch(
      /--> infill\/typeDefinitions\[\d+\] \{"jsonrpc":"2.0","id":\d+,"result":\[null\]\}/,
    );
    expect(session.events).not.toContain("--> textDocument/typeDefinition");
  });

  it("sends the declaration of a function from a file it never visited", () => {
    const before = `${LABEL.before}(`;
    const prompts = contextPrompts(sim, LABEL_PATH, before);
    expect(prompts.length, `the Eglot events were:\n${session.events}`).toBeGreaterThan(0);
    for (const { block, file } of prompts) {
      expect(file).toBe(before);
      expect(snippetsOf(block, UNITS_PATH)).toContain(UNITS_DECLARATION);
    }
    expect(session.contextLine.startsWith("export const width = inchesToCm(")).toBe(true);
  });

  it("M-x infill-status shows the server's figures: Eglot's menu accepts counted (it runs no item command), a kept take told from a deleted one, by language and context", () => {
    const lines = session.status.split("\n");
    expect(lines[0]).toMatch(
      /^usage of this server since \d\d:\d\d UTC, deepseek-v4-flash \(costs are estimates/,
    );
    expect(lines[1]?.trim().split(/\s{2,}/)).toEqual([
      "requests",
      "prompt tokens",
      "cached",
      "output tokens",
      "est. cost",
      "shown",
      "taken",
      "rate",
    ]);
    const [requests, , cached, , cost, shown, taken, rate] = lines[2]!.trim().split(/\s{2,}/);
    // Three completions at point, each taken by Eglot's exit function: beta's line and gamma's whole, the first line
    // of the block after `inchesToCm(` in part; and the completion asked after `Math.` (infill/typeDefinitions),
    // answered, not taken.
    expect({ requests, shown, taken, rate }).toEqual({
      requests: String(sim.requests.length),
      shown: "4",
      taken: "3",
      rate: "75 %",
    });
    expect(cached).toMatch(/^\d+ %$/);
    expect(cost).toMatch(/^\$0\.\d{6}$/);
    const beta = 'ute(41, "left");'.length;
    const partial = session.contextLine.length - "export const width = inchesToCm(".length;
    expect(session.gammaLine).toBe(`const gamma = ${SUGGESTION}`);
    expect({ accepted: session.accepted, acceptedChars: session.acceptedChars }).toEqual({
      accepted: 2,
      acceptedChars: 2 * beta + partial,
    });
    expect(lines[3]).toMatch(
      new RegExp(
        `^  taken: 2 whole, 1 in part, ${2 * beta + partial} characters; latency p50/p90: \\d+/\\d+ ms`,
      ),
    );
    // Gamma's line was deleted right after it was taken: at the check, what is kept is the rest.
    expect(session.retention).toEqual({
      seconds: RETENTION_SECONDS,
      checkedChars: 2 * beta + partial,
      retainedChars: beta + partial,
    });
    const keptShare = Math.round(((beta + partial) / (2 * beta + partial)) * 100);
    expect(lines[4]).toBe(
      `  kept where it went: ${RETENTION_SECONDS} s ${keptShare} % (${beta + partial} of ${2 * beta + partial} chars)`,
    );
    expect(lines[5]).toMatch(
      new RegExp(
        `^  per dollar: [\\d,]+ chars taken, [\\d,]+ kept at ${RETENTION_SECONDS} s; per 1k output tokens: [\\d,.]+ taken, [\\d,.]+ kept$`,
      ),
    );
    expect(lines[6]).toBe(
      `  by language: javascript ${requests} requests, 3 of 4 taken, ${2 * beta + partial} chars`,
    );
    expect(lines[7]).toBe(
      `  by context: with context ${requests} requests, 3 of 4 taken, ${2 * beta + partial} chars`,
    );
    expect(session.statusElsewhere).toBe(
      "infill-lsp is not running for this buffer (start it with Eglot or lsp-mode)",
    );
    expect(session.events).toMatch(/--> workspace\/executeCommand\[\d+\] [^\n]*"command":"infill.status"/);
    expect(session.events).not.toMatch(/--> workspace\/executeCommand\[\d+\] [^\n]*infill\.accepted/);
  });
});

describe("Emacs 30 with the README's Ollama configuration, through Eglot", () => {
  let sim: Sim;
  let sandbox: Sandbox;
  let file: string;
  let session: Session;

  beforeAll(async () => {
    requireBuiltServer();
    sim = await startSim({ dialect: "ollama" });
    // INFILL_BASE_URL points the server at the sim, as the README's settings leave `baseUrl` to its default.
    sandbox = await createSandbox("emacs-ollama", sim.url);
    ({ file, session } = await runSession(sandbox, { INFILL_TEST_SETUP: readmeConfig("emacs") }));
  }, PROVISION_TIMEOUT_MS + 70_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("sends the README's settings and completes at point from Ollama's /api/generate", async () => {
    expect(session.events).toContain(
      `"initializationOptions":{"infill":{"provider":"ollama","model":"qwen2.5-coder:1.5b-base"}}`,
    );
    expect(session.events).not.toContain("window/showMessage");
    expect(askedAt(sim, `const beta = co${TYPED}`, SAMPLE.after)).toBe(true);
    expect(sim.requests.map((r) => (r.body as { model?: unknown }).model)).toContain(
      "qwen2.5-coder:1.5b-base",
    );
    expect(session.line, `the Eglot events were:\n${session.events}`).toBe(`const beta = ${SUGGESTION}`);
    expect(await readFile(file, "utf8")).toContain(`const beta = ${SUGGESTION}\n`);
  });
});

describe("Emacs 30 in a terminal with next edits on (editors/README.md's settings), through Eglot's code actions", () => {
  let bin: string;
  let sim: Sim;
  let sandbox: Sandbox;
  let events: string;
  const sample = renameSample("javascript");

  beforeAll(async () => {
    requireBuiltServer();
    bin = await provisionEditors("emacs", "tmux");
    sim = await startSim();
    sandbox = await createSandbox("emacs-next-edit", sim.url);
    await run("git", ["init", "--quiet", sandbox.project], { env: sandbox.env });
    await writeFile(join(sandbox.project, "average.js"), sample.text);
    events = join(sandbox.dir, "eglot-events.txt");
    // The README's settings and key, Eglot for js-mode; the test's pause after an edit is 1 s instead of 300 ms, so
    // that a loaded machine never makes one between the keys of the rename (each would ask the sim).
    await writeFile(
      join(sandbox.dir, "init.el"),
      `(require 'infill)
${nextEditConfig("emacs")}
(setq infill-settings
      (list :nextEdit (append (plist-get infill-settings :nextEdit) '(:debounceMs 1000))))
(with-eval-after-load 'eglot (infill-eglot-setup))
(add-hook 'js-mode-hook #'eglot-ensure)
(defun infill-test-dump-events ()
  "Write the Eglot events of the buffer's server to ${events}."
  (interactive)
  (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
    ;; The events hold the JSON as it went, bytes.
    (let ((coding-system-for-write 'raw-text))
      (write-region nil nil ${JSON.stringify(events)}))))
`,
    );
  }, PROVISION_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    await sim?.close();
    await sandbox?.remove();
  });

  it("renames at the declaration, then M-x eglot-code-actions RET and the README's C-c n twice take the nearest next edit each time: the saved file holds the whole rename, from one request, each accept counted", async () => {
    const emacs = await Tmux.start({
      bin,
      socket: "infill-emacs-next-edit",
      env: sandbox.env,
      cwd: sandbox.project,
      command: [
        join(bin, "emacs"),
        "-nw",
        "-Q",
        "-L",
        join(EDITORS, "emacs"),
        "-l",
        join(sandbox.dir, "init.el"),
        "average.js",
      ],
      // Narrower than split-width-threshold: *infill-status* goes below, its lines whole.
      width: 150,
      height: 40,
    });
    const mx = async (command: string) => {
      await emacs.keys("M-x");
      await emacs.type(command);
      await emacs.keys("Enter");
    };
    try {
      await emacs.waitFor(
        "Eglot managing the buffer",
        (s) => s.includes("let total = 0;") && s.includes("[eglot:project]"),
        { timeoutMs: 30_000 },
      );
      // Before any edit: nothing to offer, and nothing asked for it (Eglot says nothing of how a request came).
      await emacs.keys("C-n", "C-n");
      await mx("eglot-code-actions");
      await emacs.waitFor("no code action before an edit", (s) => s.includes("No code actions here"));
      expect(nextEditRequests(sim)).toHaveLength(0);

      // The rename, as a user makes it: to the end of the declaration's `total`, kill the word, type `sum`.
      await emacs.keys("M-<");
      await emacs.keys("C-s");
      await emacs.type("total");
      await emacs.keys("Enter");
      await emacs.waitFor("after `total` on line 2", (s) => / L2 /.test(s));
      await emacs.keys("M-BSpace");
      await emacs.type("sum");
      await emacs.waitFor("`sum` typed", (s) => s.includes("  let sum = 0;"));

      // eglot-code-actions lists the next edit as the default; RET takes it.
      await mx("eglot-code-actions");
      const first = 'Next edit (line 3): replace "total" with "sum"';
      await emacs.waitFor("the action offered as the default", (s) => s.includes(`(default ${first})`), {
        timeoutMs: 20_000,
      });
      expect(nextEditRequests(sim)).toHaveLength(1);
      await emacs.keys("Enter");
      await emacs.waitFor("line 3 renamed", (s) => s.includes("  for (const value of values) sum += value;"));
      // The README's key, eglot-code-action-rewrite: the only rewrite on offer is applied at once.
      for (const renamed of ['  console.log("Σ ≈", sum);', "  return sum / values.length;"]) {
        await emacs.keys("C-c", "n");
        await emacs.waitFor(`"${renamed}"`, (s) => s.includes(renamed));
        expect(nextEditRequests(sim)).toHaveLength(1);
      }
      await emacs.keys("C-x", "C-s");
      let saved = "";
      await waitUntil(
        "the file to be saved",
        async () => {
          // Emacs renames the file to its backup before the first save writes it: for a moment there is none.
          saved = await readFile(join(sandbox.project, "average.js"), "utf8").catch(() => "");
          return saved === sample.renamed ? true : undefined;
        },
        { describe: async () => `the file is:\n${saved}\nthe screen:\n${await emacs.screen()}` },
      );

      // The accepts, counted (Eglot ran each action's command after its edit); the request after the last one (an
      // edit like any other, once the answer is used up) may or may not have come yet.
      await mx("infill-status");
      await emacs.waitFor("next edits in *infill-status*", (s) =>
        /^ {2}next edits: [12] requests?, est\. \$[\d.]+, taken 3 of 3 \(100 %\), 0 dismissed$/m.test(s),
      );
      await mx("infill-test-dump-events");
      await emacs.waitFor("the Eglot events written", (s) => s.includes("eglot-events.txt"));
      const log = await readFile(events, "utf8");
      const sent = (method: string) =>
        log
          .split("\n")
          .filter((line) => line.includes(`--> ${method}[`))
          .map((line) => JSON.parse(line.slice(line.indexOf("{"))).params);
      // Eglot 1.17 asks only when told to (no indicator as the cursor moves), and without triggerKind.
      const asked = sent("textDocument/codeAction");
      expect(asked.map((p) => [p.range.start.line, p.context.triggerKind, p.context.only])).toEqual([
        [2, undefined, undefined],
        [1, undefined, undefined],
        [1, undefined, ["refactor.rewrite"]],
        [1, undefined, ["refactor.rewrite"]],
      ]);
      const accepted = sent("workspace/executeCommand").filter(
        (p) => p.command === "infill.nextEditAccepted",
      );
      expect(new Set(accepted.map((p) => p.arguments?.[0])).size).toBe(3);
      await waitUntil("the request after the last accept", async () =>
        nextEditRequests(sim).length >= 2 ? true : undefined,
      );
      expect(nextEditRequests(sim)).toHaveLength(2);
    } finally {
      await emacs.kill();
    }
  }, 120_000);
});

/** Runs emacs-eglot-session.el in batch Emacs on a fresh copy of the sample; `env` adds to the sandbox's. */
async function runSession(
  sandbox: Sandbox,
  env: Record<string, string> = {},
): Promise<{ file: string; session: Session }> {
  const bin = await provisionEditors("emacs");
  const file = join(sandbox.project, "sample.js");
  await writeFile(file, SAMPLE.text);
  // A normal project: a git repository is what project.el, hence Eglot, takes as the project.
  await run("git", ["init", "--quiet", sandbox.project], { env: sandbox.env });
  await mkdir(join(sandbox.project, "lib"));
  await mkdir(join(sandbox.project, "src"));
  await writeFile(join(sandbox.project, UNITS_PATH), UNITS);
  await writeFile(join(sandbox.project, LABEL_PATH), LABEL.text);
  const scratch = join(sandbox.dir, "scratch");
  await mkdir(scratch);
  const args = [
    "--batch",
    "-Q",
    "-L",
    join(EDITORS, "emacs"),
    "-l",
    join(EDITORS, "test/emacs-eglot-session.el"),
  ];
  const result = await run(join(bin, "emacs"), args, {
    env: {
      ...sandbox.env,
      INFILL_TEST_FILE: file,
      INFILL_TEST_LINE: `${SAMPLE.line}`,
      INFILL_TEST_COLUMN: `${SAMPLE.column}`,
      INFILL_TEST_TYPE: TYPED,
      INFILL_TEST_SCRATCH: scratch,
      INFILL_TEST_CONTEXT_FILE: join(sandbox.project, LABEL_PATH),
      INFILL_TEST_CONTEXT_LINE: `${LABEL.line}`,
      INFILL_TEST_CONTEXT_COLUMN: `${LABEL.column}`,
      ...env,
    },
    cwd: sandbox.project,
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`emacs failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
  });
  const line = result.stdout.split("\n").find((l) => l.startsWith("infill-test-result: "));
  if (!line) throw new Error(`emacs printed no result:\n${result.stdout}\n${result.stderr}`);
  return { file, session: JSON.parse(line.slice("infill-test-result: ".length)) as Session };
}
