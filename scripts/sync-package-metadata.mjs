// The metadata every package must agree on comes from the root package.json: the repository URL, the license and
// the Node range. Each package gets `repository` (with its folder), `homepage`, `bugs`, `license`, `engines` and,
// when it is published, `publishConfig.access: "public"` (scoped packages are private by default on npm).
//
// The repository URL is a placeholder until the project has a public home: change `repository.url` in the root
// package.json and run `node scripts/sync-package-metadata.mjs`; it also rewrites the old URL in the documents
// that link to it (package READMEs, the Neovim plugin's docs). `--check` changes nothing and exits 1 naming what
// differs (test/metadata.test.ts runs it).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");

/** Documents that link to the repository, relative to the root. */
const DOCUMENTS = [
  "README.md",
  "packages/core/README.md",
  "packages/sim/README.md",
  "packages/lsp-server/README.md",
  "packages/neovim-plugin/README.md",
  "packages/neovim-plugin/doc/infill.txt",
];

const readJson = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
const formatJson = (value) => `${JSON.stringify(value, null, 2)}\n`;

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`. */
const webUrl = (gitUrl) => gitUrl.replace(/^git\+/, "").replace(/\.git$/, "");

const rootPkg = readJson("package.json");
const repositoryUrl = rootPkg.repository?.url;
if (!repositoryUrl) throw new Error("sync-package-metadata: the root package.json has no repository.url");
const web = webUrl(repositoryUrl);

/** Insert or replace `key` in `object`, keeping key order (new keys go after `after`, else at the end). */
function put(object, key, value, after) {
  if (key in object || !(after in object)) {
    object[key] = value;
    return object;
  }
  const out = {};
  for (const [k, v] of Object.entries(object)) {
    out[k] = v;
    if (k === after) out[key] = value;
  }
  return out;
}

const problems = [];
const oldWebUrls = new Set();

for (const dir of readdirSync(join(root, "packages")).sort()) {
  const path = `packages/${dir}/package.json`;
  let pkg;
  try {
    pkg = readJson(path);
  } catch {
    continue;
  }
  if (pkg.repository?.url && webUrl(pkg.repository.url) !== web) oldWebUrls.add(webUrl(pkg.repository.url));
  const before = formatJson(pkg);
  pkg = put(pkg, "license", rootPkg.license, "description");
  pkg = put(pkg, "repository", { type: "git", url: repositoryUrl, directory: `packages/${dir}` }, "license");
  pkg = put(pkg, "homepage", `${web}/tree/main/packages/${dir}#readme`, "repository");
  pkg = put(pkg, "bugs", { url: `${web}/issues` }, "homepage");
  pkg = put(pkg, "engines", { ...pkg.engines, node: rootPkg.engines.node }, "sideEffects");
  if (!pkg.private) pkg = put(pkg, "publishConfig", { ...pkg.publishConfig, access: "public" }, "bin");
  const after = formatJson(pkg);
  if (after === before) continue;
  if (check) problems.push(`${path} differs from what the root package.json implies`);
  else writeFileSync(join(root, path), after);
}

for (const path of DOCUMENTS) {
  const text = readFileSync(join(root, path), "utf8");
  let next = text;
  for (const old of oldWebUrls) next = next.replaceAll(old, web);
  if (next === text) continue;
  if (check) problems.push(`${path} links to ${[...oldWebUrls].join(", ")} instead of ${web}`);
  else writeFileSync(join(root, path), next);
}

if (problems.length > 0) {
  process.stderr.write(
    `${problems.join("\n")}\nrun \`node scripts/sync-package-metadata.mjs\` to bring them in line\n`,
  );
  process.exit(1);
}
