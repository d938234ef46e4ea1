// Kotlin's typing rule table, row by row, then the member outline of a receiver's type across files (issue 24).
import { describe, expect, it } from "vitest";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const kt = rules("kotlin");

describe("Kotlin: how a name is bound above the cursor", () => {
  it.each([
    { text: "val repo: UserRepository = repository()\nrepo.│", name: "repo", want: "type UserRepository" },
    { text: "val client = HttpClient(engine)\nclient.│", name: "client", want: "value HttpClient(engine)" },
    { text: "var user = repo.find(id) ?: return\nuser.│", name: "user", want: "value repo.find(id)" },
    { text: "fun save(user: User, force: Boolean = false) {\n    user.│", name: "user", want: "type User" },
    {
      text: "class Service(private val repo: UserRepository) {\n    fun f() {\n        repo.│",
      name: "repo",
      want: "type UserRepository",
    },
    { text: "for (u in users) {\n    u.│", name: "u", want: "value users inner" },
    { text: "println(user)\nuser.│", name: "user", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(kt.binding(scope(kt, text), name))).toBe(want);
  });
});

describe("Kotlin: the rest of the table", () => {
  it.each([
    { lines: "    private val cache: Cache<String, User>", name: "cache", want: "type Cache<String, User>" },
    { lines: "    val size: Int get() = items.size", name: "size", want: "type Int" },
    { lines: "    fun current(): User? {", name: "current", want: "type User?" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(kt.declared(scope(kt, lines), name))).toBe(want);
  });

  it.each([
    { lines: "    suspend fun find(id: Long): User? {", name: "find", want: "User?" },
    { lines: "    fun <T> List<T>.second(): T = this[1]", name: "second", want: "T" },
    { lines: "    fun close() = socket.close()", name: "close", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(kt.returns(scope(kt, lines), name)).toBe(want);
  });

  it("reads the class around the cursor and bases", () => {
    expect(kt.selfType(scope(kt, "class Service(val a: A) : Base() {\n    fun f() {\n        │"))).toBe(
      "Service",
    );
    const header = "class Service(private val repo: Repo) : Base(repo), Closeable, Api by impl {";
    expect(kt.bases(scope(kt, header), "Service")).toEqual(["Base", "Closeable", "Api"]);
    const show = (t: ReturnType<typeof kt.accessed>) => (t ? printType(t) : "none");
    expect(show(kt.accessed(parseType("User?", kt.types)))).toBe("User");
    expect(show(kt.element(parseType("List<User>", kt.types)))).toBe("User");
  });
});

const REPO = code`
  package com.x.data

  class UserRepository(private val db: Database) {
      fun find(id: Long): User? {
          return null
      }

      fun save(user: User) {
      }
  }
`;

describe("Kotlin: the member outline of a receiver's type", () => {
  const files = (app: string) => ({
    "/w/src/main/kotlin/com/x/data/UserRepository.kt": REPO,
    "/w/src/main/kotlin/com/x/app/App.kt": app,
  });
  const app = (body: string) => `package com.x.app\n\nimport com.x.data.UserRepository\n\n${body}`;

  it.each([
    { name: "a constructor call", body: `fun main() {\n    val repo = UserRepository(db)\n    repo.${HERE}` },
    { name: "a parameter, ?.", body: `fun main(repo: UserRepository?) {\n    repo?.${HERE}` },
    {
      name: "a constructor property read without this",
      body: `class Service(private val repo: UserRepository) {\n    fun run() {\n        repo.${HERE}`,
    },
  ])("types $name", async ({ body }) => {
    const out = await outlinesAt("kotlin", files(app(body)), "/w/src/main/kotlin/com/x/app/App.kt");
    expect(out[0]).toContain("fun find(id: Long): User? { … }");
    expect(out[0]).toContain("class UserRepository(private val db: Database) {");
  });
});
