// C++'s typing rule table, row by row, then the member outline of a receiver's type across files (issue 24).
import { describe, expect, it } from "vitest";
import { receiverAt } from "../../src/context/typing/expression.js";
import { parseType, printType } from "../../src/context/typing/type-expr.js";
import { code } from "./helpers.js";
import { bindingRow, HERE, outlinesAt, rules, scope } from "./typing-helpers.js";

const cpp = rules("cpp");

describe("C++: how a name is bound above the cursor", () => {
  it.each([
    { text: "Table* table = nullptr;\ntable->│", name: "table", want: "type Table" },
    { text: "const Options& options = opts;\noptions.│", name: "options", want: "type Options" },
    { text: "Table *t;\nt->│", name: "t", want: "type Table" },
    {
      text: "std::unique_ptr<Iterator> iter(NewIterator());\niter->│",
      name: "iter",
      want: "type std::unique_ptr<Iterator>",
    },
    { text: "auto block = std::make_unique<Block>(contents);\nblock->│", name: "block", want: "type Block" },
    { text: "auto* v = new Version(this);\nv->│", name: "v", want: "type Version" },
    { text: "auto node = YAML::Node(x);\nnode.│", name: "node", want: "value YAML::Node(x)" },
    { text: "Emitter out{stream};\nout.│", name: "out", want: "type Emitter" },
    {
      text: "void Write(WritableFile* dest, const Slice& s) {\n  dest->│",
      name: "dest",
      want: "type WritableFile",
    },
    { text: "for (const auto& file : files) {\n  file->│", name: "file", want: "value files inner" },
    { text: "for (FileMetaData* f : files_[level]) {\n  f->│", name: "f", want: "type FileMetaData" },
    { text: "return table;\ntable->│", name: "table", want: undefined },
    { text: "x = a * table;\ntable->│", name: "table", want: undefined },
  ])("$name in $text", ({ text, name, want }) => {
    expect(bindingRow(cpp.binding(scope(cpp, text), name))).toBe(want);
  });

  it.each([
    { text: "table->rep_->│", want: "table.rep_" },
    { text: "this->mem_->Ref│", want: "this.mem_" },
    { text: "(*it)->│", want: "it" },
    { text: "a - b.│", want: "b" },
  ])("reads the receiver of $text", ({ text, want }) => {
    const found = receiverAt(text.replace("│", ""), cpp.expressions);
    expect(found?.key).toBe(want);
  });
});

describe("C++: the rest of the table", () => {
  it.each([
    { lines: "  TableCache* const table_cache_;", name: "table_cache_", want: "type TableCache" },
    { lines: "  std::shared_ptr<Logger> info_log;", name: "info_log", want: "type std::shared_ptr<Logger>" },
    { lines: "  Node m_root{};", name: "m_root", want: "type Node" },
  ])("declared: $lines", ({ lines, name, want }) => {
    expect(bindingRow(cpp.declared(scope(cpp, lines), name))).toBe(want);
  });

  it.each([
    {
      lines: "  virtual Iterator* NewIterator(const ReadOptions& options) = 0;",
      name: "NewIterator",
      want: "Iterator",
    },
    { lines: "Status DBImpl::Get(const ReadOptions& o, const Slice& key) {", name: "Get", want: "Status" },
    { lines: "  const Node& operator[](const Key& key) const;", name: "operator", want: undefined },
    { lines: "  auto begin() -> iterator {", name: "begin", want: "iterator" },
    { lines: "  explicit Table(Rep* rep);", name: "Table", want: undefined },
  ])("returns: $lines", ({ lines, name, want }) => {
    expect(cpp.returns(scope(cpp, lines), name)).toBe(want);
  });

  it("reads the class around the cursor, a method's owner, bases and pointers", () => {
    expect(cpp.selfType(scope(cpp, "class LEVELDB_EXPORT DB {\n public:\n  void f() {\n    │"))).toBe("DB");
    expect(
      cpp.selfType(scope(cpp, "Status DBImpl::Write(const WriteOptions& o, WriteBatch* b) {\n  │")),
    ).toBe("DBImpl");
    expect(cpp.bases(scope(cpp, "class DBImpl : public DB, private Base<int> {"), "DBImpl")).toEqual([
      "DB",
      "Base<int>",
    ]);
    const show = (t: ReturnType<typeof cpp.accessed>) => (t ? printType(t) : "none");
    expect(show(cpp.accessed(parseType("std::unique_ptr<Iterator>", cpp.types)))).toBe("Iterator");
    expect(show(cpp.element(parseType("std::vector<FileMetaData>", cpp.types)))).toBe("FileMetaData");
    expect(cpp.hidden("Table", "  explicit Table(Rep* rep);")).toBe(true);
    expect(cpp.hidden("~Table", "  ~Table();")).toBe(true);
    expect(cpp.hidden("Next", "  virtual void Next() = 0;")).toBe(false);
  });
});

const TABLE_H = code`
  #pragma once
  namespace leveldb {

  class Iterator {
   public:
    virtual bool Valid() const = 0;
    virtual void Next() = 0;
  };

  class Table {
   public:
    explicit Table(int rep);
    Iterator* NewIterator() const;
    uint64_t ApproximateOffsetOf(const Slice& key) const;
  };

  }  // namespace leveldb
`;

describe("C++: the member outline of a receiver's type", () => {
  const files = (app: string) => ({ "/w/include/table.h": TABLE_H, "/w/src/app.cc": app });
  const env = { root: "/w", includeDirs: ["/w/include"] };
  const app = (body: string) => `#include "table.h"\n\nnamespace leveldb {\n\n${body}`;

  it("types a pointer parameter at `->`: header, member prototypes", async () => {
    const out = await outlinesAt(
      "cpp",
      files(app(`void Dump(Table* table) {\n  table->${HERE}`)),
      "/w/src/app.cc",
      {
        env,
      },
    );
    expect(out).toEqual([
      "/w/include/table.h:\n" +
        "class Table {\n" +
        "  Iterator* NewIterator() const;\n" +
        "  uint64_t ApproximateOffsetOf(const Slice& key) const;\n" +
        "};",
    ]);
  });

  it.each([
    { name: "a smart pointer", body: `void Dump() {\n  std::unique_ptr<Table> t(Open());\n  t->${HERE}` },
    { name: "make_unique", body: `void Dump() {\n  auto t = std::make_unique<Table>(1);\n  t->${HERE}` },
    { name: "a value", body: `void Dump() {\n  Table t(1);\n  t.${HERE}` },
    { name: "auto of a constructor call", body: `void Dump() {\n  auto t = Table(1);\n  t.${HERE}` },
    {
      name: "a member read without this-> in a method defined outside its class",
      body: `class Db {\n  Table* table_;\n  void Dump();\n};\nvoid Db::Dump() {\n  table_->${HERE}`,
    },
  ])("types $name", async ({ body }) => {
    const [own] = await outlinesAt("cpp", files(app(body)), "/w/src/app.cc", { env });
    expect(own).toContain("Iterator* NewIterator() const;");
  });

  it("types a method's return type through a pointer", async () => {
    const out = await outlinesAt(
      "cpp",
      files(app(`void Dump(Table* table) {\n  table->NewIterator()->${HERE}`)),
      "/w/src/app.cc",
      { env },
    );
    expect(out[0]).toContain("virtual bool Valid() const = 0;");
  });
});
