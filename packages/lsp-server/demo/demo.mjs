// An editor session, scripted: launch infill-lsp over stdio, open a sample file, ask for completions where an
// editor would, and print each one in context with its latency and token usage. Runs on the embedded
// @infill/sim unless DEEPSEEK_API_KEY is set.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
const tty = process.stdout.isTTY;
const paint = (code) => (text) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text);
const [dim, bold, ghost, green, red] = [paint(2), paint(1), paint("3;36"), paint(32), paint(31)];

const MARKERS = ["❶", "❷", "❸", "❹"];
const STORIES = {
  "❶": "empty line in a function body: a block",
  "❷": "mid-line, inside auto-paired parentheses: one line, the ')' is not repeated",
  "❸": "end of a line that opens a block",
  "❹": "a call to a function declared in another file: repository context puts its declaration in the prompt",
};

// The sample with its cursor markers taken out, and where each marker was.
const source = readFileSync(here("./sample.ts.txt"), "utf8");
const cursors = new Map();
let text = "";
for (const [i, line] of source.split("\n").entries()) {
  let clean = line;
  for (const marker of MARKERS) {
    const at = clean.indexOf(marker);
    if (at !== -1) {
      cursors.set(marker, { line: i, character: at });
      clean = clean.slice(0, at) + clean.slice(at + marker.length);
    }
  }
  text += (i ? "\n" : "") + clean;
}
const lines = text.split("\n");

// The sample is one file of a small project: a workspace folder holding it and pricing.js, which it imports.
const workspace = mkdtempSync(join(tmpdir(), "infill-demo-"));
writeFileSync(join(workspace, "sample.ts"), text);
writeFileSync(join(workspace, "pricing.js"), readFileSync(here("./pricing.js.txt"), "utf8"));

const apiKey = process.env.DEEPSEEK_API_KEY;
const sim = apiKey ? undefined : await startSim();
// The sim takes any key; the placeholder only keeps the server from asking for a real one.
const env = { ...process.env, ...(sim ? { INFILL_BASE_URL: sim.url, DEEPSEEK_API_KEY: "sim" } : {}) };
const backend = sim
  ? `the embedded @infill/sim at ${sim.url} (no API key, no network)`
  : `DeepSeek at ${process.env.INFILL_BASE_URL ?? "https://api.deepseek.com/beta"}`;

const t0 = performance.now();
const server = spawn(process.execPath, [here("../dist/infill-lsp.js"), "--stdio"], {
  env,
  stdio: ["pipe", "pipe", "inherit"],
});
const rpc = createMessageConnection(
  new StreamMessageReader(server.stdout),
  new StreamMessageWriter(server.stdin),
);
const metrics = [];
/** Who waits for the next `$/infill/metrics` (see {@link metricAfter}). */
let metricWaiter;
rpc.onNotification("$/infill/metrics", (params) => {
  metrics.push(params);
  metricWaiter?.();
});

/**
 * The metrics of the answer just read: the server sends them just after the answer (once Node has reported the
 * request's garbage collections), so wait for them a moment; none come for a request that got no suggestion.
 */
async function metricAfter(before) {
  if (metrics.length <= before) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      metricWaiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    metricWaiter = undefined;
  }
  return metrics.length > before ? metrics.at(-1) : undefined;
}
rpc.onNotification("window/showMessage", ({ message }) =>
  console.log(`  ${bold("server says:")} ${message}`),
);
rpc.onRequest(() => null);
rpc.listen();

const root = pathToFileURL(workspace).href;
const init = await rpc.sendRequest("initialize", {
  processId: process.pid,
  rootUri: root,
  workspaceFolders: [{ uri: root, name: "demo" }],
  // It prints each suggestion it gets, and says so (`infill.shown`), as the Neovim plugin does when it draws one.
  capabilities: {
    general: { positionEncodings: ["utf-16"] },
    experimental: { infill: { reportsShown: true } },
  },
  // On the sim nothing is spent: keep the demo's requests out of the user's usage log (`infill usage`).
  initializationOptions: {
    debounceMs: 0,
    metrics: true,
    // Next edits (off by default): DeepSeek's chat model through Chat Prefix Completion, or the sim's edit model.
    nextEdit: { enabled: true },
    ...(sim ? { usage: { persist: false } } : {}),
  },
});
const startedMs = performance.now() - t0;
await rpc.sendNotification("initialized", {});
console.log(`${bold("infill demo")} — ${init.serverInfo.name} ${init.serverInfo.version} against ${backend}`);
console.log(dim(`server answered initialize ${startedMs.toFixed(0)} ms after launch\n`));

const uri = pathToFileURL(join(workspace, "sample.ts")).href;
let version = 1;
await rpc.sendNotification("textDocument/didOpen", {
  textDocument: { uri, languageId: "typescript", version, text },
});

const upstreamCount = () =>
  sim ? sim.requests.length : metrics.filter((m) => m.source === "upstream").length;

async function ask(position) {
  const before = metrics.length;
  const t = performance.now();
  const list = await rpc.sendRequest("textDocument/inlineCompletion", {
    textDocument: { uri },
    position,
    context: { triggerKind: 2 },
  });
  const ms = performance.now() - t;
  const item = list.items[0];
  return { item, ms, metric: item ? await metricAfter(before) : undefined };
}

function usageLine({ ms, metric }) {
  const parts = [`${ms.toFixed(1)} ms`];
  if (metric?.source !== "upstream")
    parts.push(`served from ${metric?.source ?? "nowhere"}, no upstream request`);
  const u = metric?.usage;
  if (u) {
    parts.push(`prompt ${u.prompt_tokens} tokens (${u.prompt_cache_hit_tokens} cached)`);
    parts.push(`completion ${u.completion_tokens} tokens`);
  }
  const c = metric?.context;
  if (c?.snippets)
    parts.push(
      `context: ${c.snippets} snippet${c.snippets > 1 ? "s" : ""} from other files, ${c.tokens} tokens`,
    );
  return dim(`   ${parts.join(" · ")}`);
}

function show(position, item) {
  const insert = item?.insertText ?? "";
  const end = item?.range?.end.character ?? position.character;
  const line = lines[position.line];
  const shown = `${line.slice(0, position.character)}${ghost(insert)}${line.slice(end)}`.split("\n");
  const from = Math.max(0, position.line - 2);
  for (let i = from; i < position.line; i++) console.log(dim(`${String(i + 1).padStart(4)} │ `) + lines[i]);
  for (const [k, l] of shown.entries())
    console.log(`${dim(`${String(position.line + 1 + k).padStart(4)} │ `)}${l}`);
  if (lines[position.line + 1] !== undefined)
    console.log(dim(`${String(position.line + 1 + shown.length).padStart(4)} │ `) + lines[position.line + 1]);
}

for (const marker of MARKERS) {
  const position = cursors.get(marker);
  console.log(
    `${bold(`sample.ts:${position.line + 1}:${position.character + 1}`)} ${dim(`— ${STORIES[marker]}`)}`,
  );
  const answer = await ask(position);
  if (!answer.item) console.log("   (no suggestion)");
  else {
    show(position, answer.item);
    const id = answer.item.command?.arguments?.[0]?.id;
    if (id)
      await rpc.sendRequest("workspace/executeCommand", { command: "infill.shown", arguments: [{ id }] });
  }
  console.log(usageLine(answer));
  // What the model was shown from other files: the start of the prompt, up to this file's path line.
  const prompt = marker === "❹" ? sim?.requests.at(-1)?.body.prompt : undefined;
  const block = prompt?.slice(0, prompt.indexOf("// sample.ts\n"));
  if (block) {
    console.log(dim("   the prompt began with this context block:"));
    for (const line of block.trimEnd().split("\n")) console.log(dim(`     ${line}`));
    console.log(dim("     // sample.ts"));
  }
  console.log();
}

// Type through the first suggestion, as a user accepting it keystroke by keystroke would.
const first = cursors.get("❶");
const shownFirst = (await ask(first)).item?.insertText ?? "";
const typed = shownFirst.slice(0, 6);
const before = upstreamCount();
let cursor = first;
let lastAnswer;
for (const ch of typed) {
  version++;
  await rpc.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ range: { start: cursor, end: cursor }, text: ch }],
  });
  cursor = { line: cursor.line, character: cursor.character + 1 };
  lastAnswer = await ask(cursor);
}
console.log(
  `${bold("type-through")} ${dim(`— typing "${typed}" of the suggestion, one keystroke at a time`)}`,
);
console.log(`   still shown: ${green(typed)}${ghost(lastAnswer?.item?.insertText ?? "")}`);
console.log(
  dim(
    `   ${typed.length} keystrokes, ${upstreamCount() - before} upstream requests, last answer in ${lastAnswer.ms.toFixed(2)} ms\n`,
  ),
);

const upstream = metrics.filter((m) => m.usage);
const prompt = upstream.reduce((n, m) => n + m.usage.prompt_tokens, 0);
const hits = upstream.reduce((n, m) => n + m.usage.prompt_cache_hit_tokens, 0);
console.log(
  `${bold("session")}: ${metrics.length} suggestions, ${upstreamCount()} upstream requests, ` +
    `${prompt} prompt tokens of which ${hits} were cache hits (${prompt ? ((100 * hits) / prompt).toFixed(0) : 0}%)`,
);

// A next edit: a variable renamed at its declaration, the rename carried to its other uses, one Tab at a time (as
// copilot-lsp asks and applies them: the first edit of each answer).
const renameUri = pathToFileURL(join(workspace, "average.ts")).href;
const renameLines = [
  "export function average(values: number[]): number {",
  "  let total = 0;",
  "  for (const value of values) total += value;",
  "  return total / values.length;",
  "}",
];
let renameVersion = 1;
await rpc.sendNotification("textDocument/didOpen", {
  textDocument: {
    uri: renameUri,
    languageId: "typescript",
    version: renameVersion,
    text: renameLines.join("\n"),
  },
});
/** One change to average.ts, in the server's document and in `renameLines`. */
async function editRename(range, newText) {
  const line = renameLines[range.start.line];
  renameLines[range.start.line] =
    line.slice(0, range.start.character) + newText + line.slice(range.end.character);
  await rpc.sendNotification("textDocument/didChange", {
    textDocument: { uri: renameUri, version: ++renameVersion },
    contentChanges: [{ range, text: newText }],
  });
}
const at = (line, character) => ({ line, character });
await editRename({ start: at(1, 6), end: at(1, 11) }, "");
let renameCursor = at(1, 6);
for (const ch of "sum") {
  await editRename({ start: renameCursor, end: renameCursor }, ch);
  renameCursor = at(1, renameCursor.character + 1);
}
console.log(
  `${bold("next edit")} ${dim("— `total` renamed to `sum` at its declaration in average.ts; the server predicts the rest")}`,
);
const nextEditRequests = () => (sim ? sim.requests.filter((r) => r.body.messages).length : undefined);
const editsBefore = nextEditRequests();
for (let tab = 1; tab <= 4; tab++) {
  const asked = nextEditRequests();
  const t = performance.now();
  const { edits } = await rpc.sendRequest("textDocument/copilotInlineEdit", {
    textDocument: { uri: renameUri, version: renameVersion },
    position: renameCursor,
  });
  const ms = performance.now() - t;
  const source = sim ? (nextEditRequests() === asked ? ", from memory" : ", upstream") : "";
  const edit = edits[0];
  if (!edit) {
    console.log(dim(`   ask ${tab}: no edit left (${ms.toFixed(1)} ms${source})`));
    break;
  }
  const { start, end } = edit.range;
  const old = renameLines[start.line].slice(start.character, end.character);
  console.log(
    `   ask ${tab}: line ${start.line + 1}: ${red(old)} → ${green(edit.text)} ` +
      dim(
        `(${edits.length} edit${edits.length > 1 ? "s" : ""} in the answer, ${ms.toFixed(1)} ms${source}) — Tab applies it`,
      ),
  );
  await rpc.sendNotification("textDocument/didShowInlineEdit", { item: { command: edit.command } });
  await editRename(edit.range, edit.text);
  await rpc.sendRequest("workspace/executeCommand", edit.command);
  renameCursor = at(start.line, start.character + edit.text.length);
}
for (const [i, line] of renameLines.entries()) console.log(dim(`${String(i + 1).padStart(4)} │ `) + line);
if (sim) {
  const n = nextEditRequests() - editsBefore;
  console.log(dim(`   ${n} upstream next-edit request${n === 1 ? "" : "s"} in all\n`));
} else console.log();

// What the server counted (the figures `:Infill status`, M-x infill-status and `infill usage` show).
const status = await rpc.sendRequest("workspace/executeCommand", {
  command: "infill.status",
  arguments: [{ message: false }],
});
const counted = status.total;
console.log(
  `${bold("infill.status")}: ${counted.shown} suggestions shown, ${counted.accepted + counted.acceptedPartly} taken ` +
    `(typing through counts), ${counted.acceptedChars} characters; estimated cost $${counted.cost.toFixed(6)} ` +
    `at ${status.model}'s list prices`,
);
const nextEdits = status.nextEdits;
if (nextEdits)
  console.log(
    `${bold("next edits")}: ${nextEdits.requests} requests, ${nextEdits.shown} edits shown, ${nextEdits.accepted} accepted, ` +
      `${nextEdits.acceptedChars} characters applied`,
  );

await rpc.sendRequest("shutdown");
await rpc.sendNotification("exit");
rpc.dispose();
await sim?.close();
rmSync(workspace, { recursive: true, force: true });
