// Before and after, side by side in one run: the bench (or the eval) of another build of the server, then of this
// one, and their summary rows joined by name.
//
//   node bench/compare.mjs --base <dir>/infill-lsp.js [bench [part] | eval]
//
// Build the other server first, e.g. from an earlier commit:
//   git worktree add /tmp/infill-base <commit> && cd /tmp/infill-base && npx --yes pnpm@10 install --frozen-lockfile
//   cd packages/lsp-server && node build.mjs            # its dist/infill-lsp.js is the base
// The bench's server-level sections run each build (BENCH_BIN); its in-process sections (document sync, parsers,
// syntax) measure this checkout's source in both columns, so only the server's rows compare the builds. The eval
// runs each build (INFILL_EVAL_BIN) over the same corpora.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const at = args.indexOf("--base");
if (at === -1 || !args[at + 1]) {
  console.error(
    "usage: node bench/compare.mjs --base <path to another build's infill-lsp.js> [bench [part] | eval]",
  );
  process.exit(2);
}
const base = resolve(args[at + 1]);
const rest = args.filter((_, i) => i !== at && i !== at + 1);
const what = rest[0] ?? "bench";
const head = fileURLToPath(new URL("../dist/infill-lsp.js", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Run the bench or the eval with one build; its whole output, echoed as it comes. */
function run(bin, label) {
  const [script, env] =
    what === "eval"
      ? [["eval/run.mjs"], { INFILL_EVAL_BIN: bin }]
      : [["bench/run.mjs", ...rest.slice(1)], { BENCH_BIN: bin }];
  console.log(`\n=== ${label}: ${bin}`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, script, {
      cwd: packageDir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done(out) : fail(new Error(`${label} exited with ${code}`))));
  });
}

/**
 * The summary rows of one output, by name: the bench's (`✓ name  value   goal …` after its `summary` line), the
 * eval's (`language  corpus  holes  recall …` after its `summary, context off → on` line, by language and corpus).
 */
function rows(output) {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => /^summary/.test(line.trim()));
  const found = new Map();
  if (start === -1) return found;
  if (what === "eval") {
    for (const line of lines.slice(start + 2)) {
      const cells = line.trim().split(/\s{2,}/);
      if (cells.length < 4) break;
      found.set(`${cells[0]} ${cells[1]}`, cells.slice(2).join("  "));
    }
    // The member-access summary, when the eval has one: its rows by language and corpus too.
    const members = lines.findIndex((line) => /^member access summary/.test(line.trim()));
    for (const line of members === -1 ? [] : lines.slice(members + 2)) {
      const cells = line.trim().split(/\s{2,}/);
      if (cells.length < 4) break;
      found.set(`${cells[0]} ${cells[1]} (member access)`, cells.slice(2).join("  "));
    }
  } else {
    for (const line of lines.slice(start + 1)) {
      const match = /^[✓✗ ] (.+?)\s{2,}(\S.*?)\s{3}goal (.*)$/.exec(line);
      if (match) found.set(match[1], `${match[2]}   (goal ${match[3]})`);
    }
  }
  return found;
}

const before = rows(await run(base, "base"));
const after = rows(await run(head, "this build"));
const names = [...new Set([...before.keys(), ...after.keys()])];
const width = Math.max(...names.map((name) => name.length), 4);
console.log(`\nside by side: base ${base} | this build ${head}`);
for (const name of names) {
  console.log(
    `${name.padEnd(width)}  ${before.get(name) ?? "—"}\n${"".padEnd(width)}  ${after.get(name) ?? "—"}`,
  );
}
