// Universal Ctags, the oracle's outliner for every language but TypeScript: Debian bookworm's universal-ctags,
// provisioned like the editors (scripts/provision-editors.sh ctags), run over a corpus, its JSON output parsed.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { LANGUAGES } from "./languages.js";

const run = promisify(execFile);

/** A definition (or declaration, local, parameter) as ctags reports it. */
export interface Tag {
  readonly name: string;
  /** Workspace-relative path, `/`-separated. */
  readonly file: string;
  /** 1-based line of the name. */
  readonly line: number;
  /** The kind's long name: `function`, `prototype`, `class`, `method`, `local`… */
  readonly kind: string;
  /** 1-based last line, when ctags knows it. */
  readonly end?: number;
  /** The parser that read the file: `C`, `C++`, `Java`… */
  readonly language?: string;
  /** The kind of what it is declared in: `class`, `struct`, `package`, `function`…; none at the top level. */
  readonly scopeKind?: string;
  /** What it is declared in, as ctags writes it: `Pry.Slop` (Ruby), `YAML::detail` (C++); none at the top level. */
  readonly scope?: string;
  /** Its access, where the language has one and ctags reads it: `public`, `private`, `protected`, `default`. */
  readonly access?: string;
  /** Its declared type, where ctags reads one (C++ locals, parameters, members): `typename:const Item *`. */
  readonly typeref?: string;
  /** A function's or method's parameter list as written: `(Store s, int n)`. */
  readonly signature?: string;
}

/**
 * The options the eval runs ctags with (after the binary, before the file list on stdin): no option files, JSON,
 * line, end line, language, access, type and signature of each tag, no pattern; and the kinds ctags leaves off that the oracle reads
 * (locals and parameters that shadow a name, C prototypes). The smoke test's committed output is regenerated with
 * `cd test/fixtures/eval-corpus-c && find src lib -type f | sort | ctags <these options, quoted> >
 * ../eval-corpus-c.tags.jsonl` (ctags from `scripts/provision-editors.sh --print-bin ctags`).
 */
export const CTAGS_OPTIONS: readonly string[] = [
  "--options=NONE",
  "--output-format=json",
  "--fields=+nelatS",
  "--fields=-P",
  "--sort=no",
  ...new Set(Object.values(LANGUAGES).flatMap((spec) => spec.ctagsKinds ?? [])),
  "-L",
  "-",
  "-f",
  "-",
];

/** The tags of ctags' JSON output (one object a line; pseudo-tags and unparsable lines are skipped). */
export function parseTags(output: string): Tag[] {
  const tags: Tag[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const {
      _type,
      name,
      path: file,
      line: at,
      kind,
      end,
      language,
      scopeKind,
      scope,
      access,
      typeref,
      signature,
    } = json;
    if (_type !== "tag" || typeof name !== "string" || typeof file !== "string") continue;
    if (typeof at !== "number" || typeof kind !== "string") continue;
    tags.push({
      name,
      file: file.split(path.sep).join("/").replace(/^\.\//, ""),
      line: at,
      kind,
      ...(typeof end === "number" ? { end } : {}),
      ...(typeof language === "string" ? { language } : {}),
      ...(typeof scopeKind === "string" ? { scopeKind } : {}),
      ...(typeof scope === "string" ? { scope } : {}),
      ...(typeof access === "string" ? { access } : {}),
      ...(typeof typeref === "string" ? { typeref } : {}),
      ...(typeof signature === "string" ? { signature } : {}),
    });
  }
  return tags;
}

/** The ctags binary, provisioned into the editors' cache by the repository's script (cached after the first run). */
export async function provisionCtags(repoRoot: string): Promise<string> {
  const script = path.join(repoRoot, "scripts", "provision-editors.sh");
  const { stdout } = await run(script, ["--print-bin", "ctags"], { timeout: 600_000 });
  return path.join(stdout.trim(), "ctags");
}

/** Run `ctags` on `files` (workspace-relative) of the workspace `root`, and parse what it printed. */
export async function runCtags(ctags: string, root: string, files: readonly string[]): Promise<Tag[]> {
  const child = spawn(ctags, CTAGS_OPTIONS, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  child.stdin.end(`${files.join("\n")}\n`);
  const code = await exited;
  if (code !== 0)
    throw new Error(`ctags exited with ${code}: ${Buffer.concat(err).toString().slice(0, 500)}`);
  return parseTags(Buffer.concat(out).toString("utf8"));
}
