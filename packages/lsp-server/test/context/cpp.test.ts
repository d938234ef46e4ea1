// C and C++ rules (issue 17): `#include "a.h"` names `a.h`, found in the folders above the file too; a class behind
// an export macro; bases; the class of a method defined out of it (and of a GoogleTest fixture's test), read from
// the lines above the cursor; its members before the namespace's names. Real-looking code.
import { beforeAll, describe, expect, it } from "vitest";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { cFamilyCandidates } from "../../src/context/resolve/c-family.js";
import { cppTypeLine, indentedNesting } from "../../src/context/scan/nesting.js";
import { code, importRows, resolvedAt, summary, VirtualHost } from "./helpers.js";

const { cpp } = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await cpp.ready?.();
});

describe("C++ outline", () => {
  it("reads a class behind an export macro, its access labels, and every class's bases", () => {
    const { imports, outline } = cpp.parse(code`
      #include "yaml-cpp/dll.h"
      #include <string>
      namespace YAML {
      struct YAML_CPP_API Mark {
        static const Mark null_mark() { return Mark(); }
        int pos;
      };
      class YAML_CPP_API BadFile : public Exception {
       public:
        explicit BadFile(const std::string& name);
       private:
        int secret;
      };
      class Plain : public Base, protected ns::Other, public Tmpl<int> {
       public:
        void run();
      };
      }`);
    expect(importRows(imports)).toEqual([
      ["yaml-cpp/dll.h", "*=*"],
      ["<string>", "*=*"],
    ]);
    expect(summary(outline.declarations)).toEqual([
      "struct Mark 3-6@3 +",
      "  method null_mark 4-4@4 +",
      "  field pos 5-5@5 +",
      "class BadFile 7-12@7 +",
      "  method BadFile 9-9@9 +",
      "  field secret 11-11@11",
      "class Plain 13-16@13 +",
      "  method run 15-15@15 +",
    ]);
    expect(outline.declarations.map((d) => d.bases ?? [])).toEqual([
      [],
      ["Exception"],
      ["Base", "ns::Other", "Tmpl"],
    ]);
  });
});

describe("the class around the cursor, from the lines above it", () => {
  it.each([
    {
      name: "a method defined out of its class",
      lines: ["void Scanner::ScanKey() {", "  int x = 1;", "  Ind"],
      want: ["Scanner"],
    },
    {
      name: "a template's, its signature on two lines, Allman braces",
      lines: [
        "template <typename T>",
        "void detail::Node<T>::set(int a,",
        "                         int b)",
        "{",
        "  x",
      ],
      want: ["detail::Node"],
    },
    {
      name: "a GoogleTest test of a fixture",
      lines: ["TEST_F(HandlerTest, Empty) {", "  Parse("],
      want: ["HandlerTest"],
    },
    { name: "a free function", lines: ["int main(int argc, char** argv) {", "  run("], want: [] },
  ])("$name", ({ lines, want }) => {
    expect(indentedNesting(lines, cppTypeLine, "//").map((t) => t.path.join("::"))).toEqual(want);
  });
  it("reads a class line's bases", () => {
    expect(cppTypeLine("class API Emitter : public Base, private detail::Impl<T> {")).toEqual({
      name: "Emitter",
      path: ["Emitter"],
      bases: ["Base", "detail::Impl"],
    });
  });
});

describe("C++ includes and names", () => {
  it("finds a quoted include beside the file, in the conventional folders, then in the folders above", () => {
    expect(cFamilyCandidates("handler_test.h", "/w/test/integration/a_test.cpp", { root: "/w" })).toEqual([
      "/w/test/integration/handler_test.h",
      "/w/handler_test.h",
      "/w/include/handler_test.h",
      "/w/src/handler_test.h",
      "/w/test/handler_test.h",
    ]);
    expect(cFamilyCandidates("<x.h>", "/w/test/integration/a_test.cpp", { root: "/w" })).toEqual([
      "/w/x.h",
      "/w/include/x.h",
      "/w/src/x.h",
    ]);
  });

  const files: Record<string, string> = {
    "/w/src/scanner.h": code`
      #include "token.h"
      namespace YAML {
      class Scanner : public Base {
       private:
        struct IndentMarker {
          int column;
        };
        void pop();
      };
      }`,
    "/w/src/base.h": code`
      namespace YAML {
      class Base {
       protected:
        bool InBlockContext() const;
      };
      }`,
    "/w/src/token.h": code`
      #include "base.h"
      namespace YAML {
      struct IndentMarker {};
      }`,
    "/w/src/scanner.cpp": code`
      #include "scanner.h"
      namespace YAML {
      void Scanner::pop() {
        IndentMarker m;
        InBlockContext();
      }
      }`,
    "/w/test/fixture.h": code`
      class ParserTest {
       protected:
        void Parse(const char* text);
      };`,
    "/w/test/unit/parser_test.cpp": code`
      #include "fixture.h"
      TEST_F(ParserTest, Empty) {
        Parse("");
      }`,
  };
  const host = new VirtualHost(files);
  const resolve = (file: string, line: number, name: string) =>
    resolvedAt(cpp, host, file, files[file]!, line, { name, distance: 0 });

  it.each([
    {
      name: "a member of the class of an out-of-class method, before a namespace's name of the same name",
      at: ["/w/src/scanner.cpp", 3, "IndentMarker"] as const,
      want: ["/w/src/scanner.h:IndentMarker"],
    },
    {
      name: "a member its base declares",
      at: ["/w/src/scanner.cpp", 4, "InBlockContext"] as const,
      want: ["/w/src/base.h:InBlockContext"],
    },
    {
      name: "a GoogleTest fixture's method, its header found in the folder above",
      at: ["/w/test/unit/parser_test.cpp", 2, "Parse"] as const,
      want: ["/w/test/fixture.h:Parse"],
    },
  ])("$name", async ({ at: [file, line, name], want }) => {
    expect(await resolve(file, line, name)).toEqual(want);
  });
});
