// The hand-written parsers against their tree-sitter replacements (bench/syntax-alternatives.ts), over real code, in
// one run: how far their outlines and imports agree, and how fast each parses. Then the parse speed of the
// languages that only tree-sitter parses.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bash, c, cpp, csharp, java, php, ruby } from "../src/context/lang/index.js";
import type { Declaration, LanguageSupport } from "../src/context/types.js";
import { quantile, report } from "./harness.js";
import { ALTERNATIVES } from "./syntax-alternatives.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, "..");
const repoRoot = join(packageRoot, "..", "..");
const requireHere = createRequire(join(packageRoot, "package.json"));

/** Files below `dir` whose name matches, at most `maxBytes` in all (sorted, so the same files every run). */
function filesBelow(
  dir: string,
  pattern: RegExp,
  maxBytes = 4_000_000,
  out: string[] = [],
  budget = { left: maxBytes },
): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    if (budget.left <= 0) break;
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const file = join(dir, name);
    const info = statSync(file, { throwIfNoEntry: false });
    if (!info) continue;
    if (info.isDirectory()) filesBelow(file, pattern, maxBytes, out, budget);
    else if (pattern.test(name) && info.size <= 1_000_000) {
      out.push(file);
      budget.left -= info.size;
    }
  }
  return out;
}

/** Real code of each language found on this machine (named in the output). */
function corpora(): Record<string, { where: string; files: string[] }> {
  const zod = join(dirname(requireHere.resolve("zod/package.json")), "src");
  const pnpmStore = join(repoRoot, "node_modules", ".pnpm");
  const grammarBindings = (ext: RegExp) =>
    readdirSync(pnpmStore)
      .filter((d) => d.startsWith("tree-sitter") || d.startsWith("@tree-sitter"))
      .flatMap((d) => filesBelow(join(pnpmStore, d, "node_modules"), ext));
  return {
    "TypeScript/JavaScript": {
      where: "zod 4's src/ and this repository's packages/*/src",
      files: [
        ...filesBelow(zod, /\.(ts|tsx|mts|js|mjs)$/),
        ...readdirSync(join(repoRoot, "packages")).flatMap((p) =>
          filesBelow(join(repoRoot, "packages", p, "src"), /\.(ts|tsx|js|mjs)$/),
        ),
      ],
    },
    Python: {
      where: "/usr/lib/python3.11 (Debian's standard library, 4 MB)",
      files: filesBelow("/usr/lib/python3.11", /\.py$/),
    },
    Go: {
      where: "git's contrib/*.go and the grammar packages' Go bindings (small: no Go tree here)",
      files: [...filesBelow("/usr/share/doc/git", /\.go$/), ...grammarBindings(/\.go$/)],
    },
    Rust: {
      where: "the grammar packages' Rust bindings (small: no Rust sources here)",
      files: [
        ...grammarBindings(/\.rs$/),
        ...filesBelow(join(homedir(), ".cargo", "registry", "src"), /\.rs$/, 2_000_000),
      ],
    },
    Lua: {
      where: "this repository's Neovim plugin",
      files: filesBelow(join(repoRoot, "packages", "neovim-plugin"), /\.lua$/),
    },
  };
}

/** Every declaration with its members, as `kind name @nameLine`. */
function keys(declarations: readonly Declaration[], withKind: boolean, out = new Set<string>()): Set<string> {
  for (const d of declarations) {
    out.add(withKind ? `${d.kind} ${d.name}@${d.nameLine}` : `${d.name}@${d.nameLine}`);
    keys(d.members ?? [], withKind, out);
  }
  return out;
}

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const k of a) if (b.has(k)) n++;
  return n;
}

/** Milliseconds per MB of parsing every file with `support` (the best of three passes, after a warm-up pass). */
function msPerMb(
  files: Array<{ file: string; text: string }>,
  pick: (file: string) => LanguageSupport,
): number {
  const bytes = files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0);
  let best = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 4; pass++) {
    const t = performance.now();
    for (const { file, text } of files) pick(file).parse(text);
    const ms = performance.now() - t;
    if (pass > 0) best = Math.min(best, ms);
  }
  return best / (bytes / 1e6);
}

export async function parsersBench(): Promise<void> {
  console.log("parsers: hand-written vs tree-sitter, same files, one run");
  const found = corpora();
  for (const alternative of ALTERNATIVES) {
    const { name, handWritten, treeSitter } = alternative;
    const pick = alternative.forFile ?? (() => treeSitter);
    await treeSitter.ready?.();
    await pick("x.tsx").ready?.();
    const corpus = found[name]!;
    const files = corpus.files.map((file) => ({ file, text: readFileSync(file, "utf8") }));
    if (files.length === 0) {
      console.log(`  ${name}: no files (${corpus.where})`);
      continue;
    }
    const mb = files.reduce((sum, f) => sum + Buffer.byteLength(f.text), 0) / 1e6;
    let both = 0;
    let handOnly = 0;
    let treeOnly = 0;
    let sameKind = 0;
    let importsBoth = 0;
    let importsHand = 0;
    let importsTree = 0;
    let reexportsBoth = 0;
    let reexportsHand = 0;
    let reexportsTree = 0;
    const examples: string[] = [];
    for (const { file, text } of files) {
      const h = handWritten.parse(text);
      const t = pick(file).parse(text);
      const hk = keys(h.outline.declarations, false);
      const tk = keys(t.outline.declarations, false);
      const common = overlap(hk, tk);
      both += common;
      handOnly += hk.size - common;
      treeOnly += tk.size - common;
      sameKind += overlap(keys(h.outline.declarations, true), keys(t.outline.declarations, true));
      const hi = new Set(h.imports.map((i) => `${i.specifier}@${i.line}`));
      const ti = new Set(t.imports.map((i) => `${i.specifier}@${i.line}`));
      importsBoth += overlap(hi, ti);
      importsHand += hi.size;
      importsTree += ti.size;
      const hr = new Set(h.outline.reexports.map((r) => r.specifier));
      const tr = new Set(t.outline.reexports.map((r) => r.specifier));
      reexportsBoth += overlap(hr, tr);
      reexportsHand += hr.size;
      reexportsTree += tr.size;
      if (examples.length < 4) {
        const missing = [...hk].filter((k) => !tk.has(k)).slice(0, 2);
        const extra = [...tk].filter((k) => !hk.has(k)).slice(0, 2);
        if (missing.length + extra.length > 0)
          examples.push(
            `${file.replace(`${repoRoot}/`, "")}: only hand-written ${missing.join(", ") || "-"}; only tree-sitter ${extra.join(", ") || "-"}`,
          );
      }
    }
    const handMs = msPerMb(files, () => handWritten);
    const treeMs = msPerMb(files, pick);
    const pct = (n: number, d: number) => (d === 0 ? "—" : `${((100 * n) / d).toFixed(1)} %`);
    console.log(`  ${name}: ${files.length} files, ${mb.toFixed(2)} MB (${corpus.where})`);
    console.log(
      `    declarations (name and line): ${both} in both, ${handOnly} only hand-written, ${treeOnly} only tree-sitter; tree-sitter finds ${pct(both, both + handOnly)} of the hand-written's, kinds agree on ${pct(sameKind, both)}`,
    );
    console.log(
      `    import statements (specifier and line): ${importsBoth} in both of ${importsHand} hand-written, ${importsTree} tree-sitter; re-exports (specifier): ${reexportsBoth} in both of ${reexportsHand} hand-written, ${reexportsTree} tree-sitter`,
    );
    console.log(
      `    parse time: hand-written ${handMs.toFixed(1)} ms/MB, tree-sitter ${treeMs.toFixed(1)} ms/MB (${(treeMs / handMs).toFixed(1)}×)`,
    );
    for (const example of examples) console.log(`      e.g. ${example}`);
  }
  await syntaxOnly();
}

/** A file per tree-sitter-only language, generated from a few real-looking declarations, parsed whole. */
async function syntaxOnly(): Promise<void> {
  const samples: Array<[LanguageSupport, string]> = [
    [
      c,
      "/** Doc. */\nstatic int add(int a, int b) {\n  return a + b;\n}\nstruct point { int x, y; };\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n",
    ],
    [
      cpp,
      "namespace app {\ntemplate <typename T>\nclass Box {\n public:\n  T get() const { return v_; }\n private:\n  T v_;\n};\n}\n",
    ],
    [
      java,
      "/** A box. */\npublic class Box {\n  private int v;\n  public int get() {\n    return v;\n  }\n}\n",
    ],
    [
      csharp,
      "/// <summary>Box.</summary>\npublic class Box {\n  public int V { get; set; }\n  public int Get() {\n    return V;\n  }\n}\n",
    ],
    [ruby, "# A box.\nclass Box\n  def initialize(v)\n    @v = v\n  end\n  def get\n    @v\n  end\nend\n"],
    [
      php,
      "/** A box. */\nclass Box {\n    private int $v;\n    public function get(): int {\n        return $this->v;\n    }\n}\n",
    ],
    [bash, '# Deploy.\ndeploy() {\n  local target=$1\n  rsync -a . "$target"\n}\nROOT=/srv\n'],
  ];
  const perLanguage: string[] = [];
  for (const [support, sample] of samples) {
    await support.ready?.();
    // About 1 MB: the sample repeated (the grammar and the query see real declarations throughout).
    const text =
      (support.family === "php" ? "<?php\n" : "") + sample.repeat(Math.ceil(1_000_000 / sample.length));
    const times: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      support.parse(text.slice(0, 1_000_000));
      times.push(performance.now() - t);
    }
    perLanguage.push(`${support.family} ${quantile(times.slice(1), 0).toFixed(0)}`);
  }
  console.log(`  tree-sitter only, ms to parse 1 MB of generated code: ${perLanguage.join(", ")}`);
  report(
    "tree-sitter languages parsed",
    `${samples.length}`,
    "≥ 6 (C, C++, Java, C#, Ruby, PHP)",
    samples.length >= 6,
  );
}
