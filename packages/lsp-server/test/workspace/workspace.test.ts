import { describe, expect, it } from "vitest";
import { contains, initialFolders, pathToUri, uriToPath, Workspace } from "../../src/workspace/workspace.js";

describe("uriToPath", () => {
  it.each([
    ["file:///home/u/p/a.ts", "/home/u/p/a.ts"],
    ["file:///home/u/p/", "/home/u/p"],
    ["file:///home/u/my%20project/a.ts", "/home/u/my project/a.ts"],
    ["untitled:Untitled-1", undefined],
    ["https://example.com/a.ts", undefined],
    ["file://remote-host/share/a.ts", undefined],
  ])("%s → %s", (uri, path) => {
    expect(uriToPath(uri)).toBe(path);
  });

  it("round-trips with pathToUri", () => {
    expect(uriToPath(pathToUri("/tmp/a b/c#d.ts"))).toBe("/tmp/a b/c#d.ts");
  });
});

describe("contains", () => {
  it.each([
    ["/w", "/w", true],
    ["/w", "/w/a.ts", true],
    ["/w", "/w/..a/b.ts", true],
    ["/w", "/w2/a.ts", false],
    ["/w", "/a.ts", false],
    ["/w/p", "/w/a.ts", false],
    ["/w", "relative/a.ts", false],
    // Not plain: compared as `path.relative` resolves them.
    ["/w", "/w/../w/a.ts", true],
    ["/w", "/w/./a.ts", true],
    ["/w", "/w/../x/a.ts", false],
    ["/w", "/w//a.ts", true],
    ["/w/", "/w/a.ts", true],
    ["/", "/a.ts", true],
  ])("%s holds %s: %s", (dir, path, expected) => {
    expect(contains(dir, path)).toBe(expected);
  });
});

describe("Workspace", () => {
  it("names paths relative to their folder, and knows nothing outside", () => {
    const ws = new Workspace();
    ws.set([{ uri: "file:///w/app", name: "app" }]);
    expect(ws.relative("/w/app/src/a.ts")).toBe("src/a.ts");
    expect(ws.relative("/w/other/a.ts")).toBeUndefined();
    expect(ws.relative("/w/app")).toBe("");
    expect(ws.relative("/w/app/src/../lib/b.ts")).toBe("lib/b.ts");
    expect(ws.folderOf("/w/app/src/a.ts")?.path).toBe("/w/app");
  });

  it("prefixes the folder name with several folders, and picks the innermost of nested ones", () => {
    const ws = new Workspace();
    ws.set([
      { uri: "file:///w", name: "mono" },
      { uri: "file:///w/packages/core", name: "core" },
    ]);
    expect(ws.relative("/w/packages/core/src/a.ts")).toBe("core/src/a.ts");
    expect(ws.relative("/w/README.md")).toBe("mono/README.md");
  });

  it("follows added and removed folders, ignoring duplicates and non-file URIs", () => {
    const ws = new Workspace();
    ws.set([{ uri: "file:///a" }, { uri: "vscode-vfs://github/x" }]);
    ws.change([{ uri: "file:///b", name: "b" }, { uri: "file:///b" }], [{ uri: "file:///a" }]);
    expect(ws.folders.map((f) => f.path)).toEqual(["/b"]);
    expect(ws.folders[0]?.name).toBe("b");
    ws.change([{ uri: "file:///c/" }], []);
    expect(ws.folders.map((f) => [f.path, f.name])).toEqual([
      ["/b", "b"],
      ["/c", "c"],
    ]);
  });
});

describe("Workspace.scopeOf", () => {
  const workspace = new Workspace();
  workspace.set([{ uri: "file:///ws/a" }, { uri: "file:///ws/a/inner" }]);
  it.each([
    ["file:///ws/a/src/x.ts", "file:///ws/a"],
    ["file:///ws/a/inner/x.ts", "file:///ws/a/inner"],
    ["file:///ws/ab/x.ts", undefined],
    ["untitled:Untitled-1", undefined],
  ])("%s → %s", (uri, folder) => {
    expect(workspace.scopeOf(uri)).toBe(folder);
  });

  it("tells its listeners after each change", () => {
    const changes: number[] = [];
    const stop = workspace.onDidChange(() => changes.push(workspace.folders.length));
    workspace.change([{ uri: "file:///ws/b" }], []);
    workspace.change([], [{ uri: "file:///ws/a" }]);
    stop();
    workspace.change([{ uri: "file:///ws/c" }], []);
    expect(changes).toEqual([3, 2]);
  });
});

describe("initialFolders", () => {
  const home = "/home/u";
  it.each([
    [{ workspaceFolders: [{ uri: "file:///w", name: "w" }], rootUri: "file:///r" }, ["file:///w"]],
    [{ workspaceFolders: [], rootUri: "file:///r" }, ["file:///r"]],
    [{ workspaceFolders: null, rootUri: null, rootPath: "/home/u/project" }, ["file:///home/u/project"]],
    [{ workspaceFolders: [], rootUri: null, rootPath: "/home/u/project/" }, ["file:///home/u/project"]],
    [{ rootPath: "/" }, []],
    [{ rootPath: "/home/u" }, []],
    [{ rootPath: "relative/dir" }, []],
    [{}, []],
  ])("%j → %j", (params, uris) => {
    expect(initialFolders(params, home).map((folder) => folder.uri)).toEqual(uris);
  });
});
