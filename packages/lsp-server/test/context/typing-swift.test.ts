// Swift's typing rule table, row by row, then the member outline of a receiver's type across files (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const swift = rules("swift");

describe("Swift: how a name is bound above the cursor", () => {
  it.each([
    { text: "let store: Store = makeStore()\nstore.│", name: "store", want: "type Store" },
    {
      text: "var session = Session(config: c)\nsession.│",
      name: "session",
      want: "value Session(config: c)",
    },
    {
      text: "let user = try await api.fetchUser(id)\nuser.│",
      name: "user",
      want: "value await api.fetchUser(id)",
    },
    {
      text: "guard let user = cache.user(for: id) else {\n  return\n}\nuser.│",
      name: "user",
      want: "value cache.user(for: id)",
    },
    { text: "if let view = makeView() {\n  view.│", name: "view", want: "value makeView()" },
    {
      text: "func render(_ view: View, into target: inout Canvas) {\n  target.│",
      name: "target",
      want: "type Canvas",
    },
    { text: "func render(_ view: View) async throws {\n  view.│", name: "view", want: "type View" },
    { text: "for item in items {\n  item.│", name: "item", want: "value items inner" },
    { text: "show(user: user)\nuser.│", name: "user", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(swift.binding(scope(swift, text), name))).toBe(want);
  });
});

describe("Swift: the rest of the table", () => {
  it.each([
    { lines: "    private let api: APIClient", name: "api", want: "type APIClient" },
    { lines: "    var current: User? {\n        users.first\n    }", name: "current", want: "type User?" },
    { lines: "    func session() -> Session {", name: "session", want: "type Session" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(swift.declared(scope(swift, lines), name))).toBe(want);
  });

  it.each([
    { lines: "    func fetchUser(_ id: Int) async throws -> User {", name: "fetchUser", want: "User" },
    { lines: "    func map<T>(_ f: (Int) -> T) -> [T] where T: Equatable {", name: "map", want: "[T]" },
    { lines: "    func reset() {", name: "reset", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(swift.returns(scope(swift, lines), name)).toBe(want);
  });

  it("reads the type around the cursor (an extension too) and bases", () => {
    expect(swift.selfType(scope(swift, "extension Store {\n  func f() {\n    self.│"))).toBe("Store");
    expect(swift.bases(scope(swift, "final class Store: BaseStore, ObservableObject {"), "Store")).toEqual([
      "BaseStore",
      "ObservableObject",
    ]);
    const show = (t: ReturnType<typeof swift.accessed>) => (t ? printType(t) : "none");
    expect(show(swift.accessed(parseType("Optional<User>", swift.types)))).toBe("User");
    expect(show(swift.element(parseType("[User]", swift.types)))).toBe("User");
    expect(swift.hidden("init", "    init(api: APIClient) {")).toBe(true);
  });
});

const CLIENT = code`
  final class APIClient {
      init(base: String) {}

      func fetchUser(_ id: Int) async throws -> User {
          fatalError()
      }

      func logout() {}
  }
`;

describe("Swift: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/Sources/App/APIClient.swift": CLIENT,
    "/w/Sources/App/Main.swift": app,
  });

  it.each([
    {
      name: "an initializer call",
      body: `func main() {\n    let api = APIClient(base: "x")\n    api.${HERE}`,
    },
    { name: "a parameter, ?.", body: `func main(api: APIClient?) {\n    api?.${HERE}` },
    {
      name: "a property read without self",
      body: `struct Screen {\n    let api: APIClient\n    func load() {\n        api.${HERE}`,
    },
  ])("types $name", async ({ body }) => {
    const out = await outlinesAt("swift", files(body), "/w/Sources/App/Main.swift");
    expect(out[0]).toContain("func fetchUser(_ id: Int) async throws -> User { … }");
    expect(out[0]).not.toContain("init(base: String)");
  });
});
