// RepositoryContext.typeOutline: the member outline of the type declared at a file's line, the entry point for the
// type definitions an editor's language server answers (issue 24, item 2).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepositoryContext } from "../../src/context/repository-context.js";
import { Documents } from "../../src/documents/documents.js";
import { defaultSettings } from "../../src/settings/settings.js";

let root: string;
let repo: RepositoryContext | undefined;
const write = (rel: string, text: string) => {
  const path = join(root, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "infill-type-outline-"));
});
afterEach(() => {
  repo?.dispose();
  rmSync(root, { recursive: true, force: true });
});

function repository(enabled = true): RepositoryContext {
  const settings = { ...defaultSettings({}).context, enabled };
  repo = new RepositoryContext({
    documents: new Documents(),
    settings: () => settings,
    log: { error() {}, warn() {}, info() {}, debug() {} },
  });
  repo.workspace.set([{ uri: pathToFileURL(root).href, name: "w" }]);
  return repo;
}

describe("the outline of the type declared at a file's line", () => {
  it("gives the type's and its bases' member outlines, by path or URI, within the budget", async () => {
    write("src/base.ts", "export class Base {\n  log(line: string): void {}\n}\n");
    const client = write(
      "src/client.ts",
      'import { Base } from "./base.js";\nexport class Client extends Base {\n  open(url: string): void {}\n  close(): void {}\n}\n',
    );
    const repo = repository();
    const rows = (snippets: Awaited<ReturnType<RepositoryContext["typeOutline"]>>) =>
      snippets.map((s) => `${s.path}:${s.startLine + 1} ${s.kind}\n${s.text}`);
    const want = [
      "src/client.ts:2 outline\nexport class Client extends Base {\n  open(url: string): void {}\n  close(): void {}\n}",
      "src/base.ts:1 outline\nexport class Base {\n  log(line: string): void {}\n}",
    ];
    expect(rows(await repo.typeOutline(client, 1, 512))).toEqual(want);
    expect(rows(await repo.typeOutline(pathToFileURL(client).href, 3, 512))).toEqual(want);
    // A budget for one member: the type's own first.
    expect(rows(await repo.typeOutline(client, 1, 20))).toEqual([
      "src/client.ts:2 outline\nexport class Client extends Base {\n  open(url: string): void {}\n}",
    ]);
  });

  it("gives none for a line without a type, a file outside the workspace, or with context off", async () => {
    const client = write(
      "src/client.ts",
      "export const x = 1;\nexport class Client {\n  close(): void {}\n}\n",
    );
    expect(await repository().typeOutline(client, 0, 512)).toEqual([]);
    expect(await repository().typeOutline("/elsewhere/client.ts", 1, 512)).toEqual([]);
    expect(await repository(false).typeOutline(client, 1, 512)).toEqual([]);
  });
});
