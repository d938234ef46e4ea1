// A scripted editing session against the built infill-lsp and the embedded @infill/sim, then what `infill usage
// --by context` and `infill usage --by language` print of it. Like a popup editor (Helix, Eglot), the script takes
// items from the menu by applying their edit and runs no command: the server infers the accepts. Some suggestions are
// kept, some taken and then deleted or edited, some passed over; half the requests are held out from repository
// context (context.holdout 0.5). Retention is checked at 0.5 s and 2 s instead of 30 s … 10 min. Everything goes to a
// temporary usage log, never the user's. Run after a build: node packages/lsp-server/demo/usage-session.mjs
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startSim } from "@infill/sim";
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const state = mkdtempSync(join(tmpdir(), "infill-usage-session-"));
const project = pathToFileURL(join(state, "project")).href;
const sim = await startSim();
const server = spawn(process.execPath, [here("../dist/infill-lsp.js"), "--stdio"], {
  // A DeepSeek provider on the sim's URL: its usage is priced and written to the (temporary) log.
  env: {
    PATH: process.env.PATH,
    XDG_STATE_HOME: state,
    INFILL_BASE_URL: sim.url,
    DEEPSEEK_API_KEY: "sk-demo-0123456789",
  },
  stdio: ["pipe", "pipe", "inherit"],
});
const rpc = createMessageConnection(
  new StreamMessageReader(server.stdout),
  new StreamMessageWriter(server.stdin),
);
rpc.onRequest(() => null);
rpc.listen();
await rpc.sendRequest("initialize", {
  processId: process.pid,
  rootUri: project,
  workspaceFolders: [{ uri: project, name: "project" }],
  capabilities: {},
  initializationOptions: { debounceMs: 0, context: { holdout: 0.5 }, usage: { retentionChecks: [0.5, 2] } },
});
await rpc.sendNotification("initialized", {});

// Each file: a line the sim copies from, then lines where the cursor asks for the rest of it.
const LANGUAGES = [
  {
    ext: "ts",
    id: "typescript",
    source: 'const alpha = compute(41, "left");',
    ask: (i) => `const v${i} = comp`,
  },
  { ext: "py", id: "python", source: 'alpha = compute(41, "left")', ask: (i) => `v${i} = comp` },
  { ext: "go", id: "go", source: 'alpha := compute(41, "left")', ask: (i) => `v${i} := comp` },
];
// What the user does with the suggestion at each spot, in turn.
const FATES = ["keep", "keep", "delete", "pass", "edit", "keep", "pass"];
const versions = new Map();
const change = (uri, range, text) => {
  const version = (versions.get(uri) ?? 1) + 1;
  versions.set(uri, version);
  return rpc.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ range, text }],
  });
};

/** The server's figures (`infill.status`). */
const status = () =>
  rpc.sendRequest("workspace/executeCommand", { command: "infill.status", arguments: [{ message: false }] });
const figures = async () => (await status()).total;
/** Ask the server's figures until `check` holds (no fixed sleep), for at most 20 s. */
async function until(what, check) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const total = await figures();
    if (check(total)) return total;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(total)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let spot = 0;
for (let file = 0; file < 12; file++) {
  const lang = LANGUAGES[file % LANGUAGES.length];
  const uri = `${project}/src/module${file}.${lang.ext}`;
  const lines = [lang.source];
  await rpc.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: lang.id, version: 1, text: `${lang.source}\n` },
  });
  for (let i = 0; i < 4; i++, spot++) {
    // Type the next line, then open the menu at its end.
    const line = lines.length;
    const asked = lang.ask(i);
    await change(uri, { start: { line, character: 0 }, end: { line, character: 0 } }, `${asked}\n`);
    lines.push(asked);
    const at = { line, character: asked.length };
    const shownBefore = (await figures()).shown;
    const list = await rpc.sendRequest("textDocument/completion", { textDocument: { uri }, position: at });
    const edit = list.items[0]?.textEdit;
    const fate = FATES[spot % FATES.length];
    if (!edit || fate === "pass") {
      // Passed over once the user saw it (the server counts it shown after a moment on screen): the line rewritten.
      if (edit) await until("the suggestion counted shown", (figures) => figures.shown > shownBefore);
      const other = `${asked.slice(0, asked.length - "comp".length)}other();`;
      await change(uri, { start: { line, character: 0 }, end: at }, other);
      lines[line] = other;
      continue;
    }
    await change(uri, edit.range, edit.newText);
    lines[line] = lines[line].slice(0, edit.range.start.character) + edit.newText;
    if (fate === "delete") {
      await change(uri, { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, "");
      lines.splice(line, 1);
    } else if (fate === "edit") {
      // A small edit inside what was taken: 41 → 42.
      const at41 = lines[line].indexOf("41");
      await change(uri, { start: { line, character: at41 }, end: { line, character: at41 + 2 } }, "42");
      lines[line] = lines[line].replace("41", "42");
    }
  }
}

// The retention checks at 2 s of everything taken.
const t = await until(
  "the last retention checks",
  (total) => total.retained.at(-1)?.checkedChars === total.acceptedChars,
);
console.log(
  `scripted session: ${t.requests} requests, ${t.shown} suggestions shown, ${t.accepted + t.acceptedPartly} taken ` +
    `(${t.acceptedChars} characters, no item command run), retention checked at 0.5 s and 2 s\n`,
);
await rpc.sendRequest("shutdown");
await rpc.sendNotification("exit");
await once(server, "exit");
rpc.dispose();
await sim.close();

const cli = here("../../core/dist/cli.js");
for (const by of ["context", "language"]) {
  console.log(`$ infill usage --by ${by}`);
  console.log(
    execFileSync(process.execPath, [cli, "usage", "--by", by], {
      env: { PATH: process.env.PATH, XDG_STATE_HOME: state },
      encoding: "utf8",
    }).replaceAll(state, "$XDG_STATE_HOME"),
  );
}
rmSync(state, { recursive: true, force: true });
