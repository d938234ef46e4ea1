// The languages parsed with tree-sitter: declarations, members, doc comments, exported, imports and references,
// per language on real-looking code.
import { beforeAll, describe, expect, it } from "vitest";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { familyOf, SYNTAX_FAMILIES } from "../../src/context/languages.js";
import { headerFamily } from "../../src/context/modules/parse-file.js";
import type { LanguageSupport } from "../../src/context/types.js";
import { code, declaration, importRows, referenceRows, summary } from "./helpers.js";

const { bash, c, cpp, csharp, elixir, java, kotlin, php, ruby, scala, swift, zig } = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await Promise.all(Object.values(SYNTAX_SUPPORTS).map((support) => support.ready?.()));
});

it("lists the tree-sitter families where start-up reads them without loading the languages", () => {
  expect([...SYNTAX_FAMILIES].sort()).toEqual(Object.keys(SYNTAX_SUPPORTS).sort());
});

interface Case {
  support: LanguageSupport;
  text: string;
  outline: string[];
  imports: string[][];
}

const CASES: Record<string, Case> = {
  "C: a header and its source": {
    support: c,
    text: code`
      #include "foo.h"
      #include <stdio.h>
      #define MAX(a, b) ((a) > (b) ? (a) : (b))
      #define N 10
      #define FOO_H
      /** Doc of add. */
      static int add(int a, int b) { return a + b; }
      int *make(void);
      typedef struct point { int x, y; char *name; } Point;
      struct list { struct list *next; };
      enum color { RED, GREEN };
      typedef int (*cb)(int);
      extern int counter;
      int main(void) {
        int local = 1;
        struct inner { int z; } i;
        return local;
      }`,
    outline: [
      "function MAX 2-2@2 +",
      "variable N 3-3@3 +",
      "function add 5-6@6",
      "function make 7-7@7 +",
      "type Point 8-8@8 +",
      "struct point 8-8@8 +",
      "  field x 8-8@8 +",
      "  field y 8-8@8 +",
      "  field name 8-8@8 +",
      "struct list 9-9@9 +",
      "  field next 9-9@9 +",
      "enum color 10-10@10 +",
      "  field RED 10-10@10 +",
      "  field GREEN 10-10@10 +",
      "type cb 11-11@11 +",
      "variable counter 12-12@12 +",
      "function main 13-17@13 +",
    ],
    imports: [
      ["foo.h", "*=*"],
      ["<stdio.h>", "*=*"],
    ],
  },
  "C++: a class template in a namespace, members by access": {
    support: cpp,
    text: code`
      #include <vector>
      namespace app {
      // A box.
      template <typename T>
      class Box : public Base {
       public:
        Box(T v);
        T get() const { return v_; }
        static int count;
       private:
        T v_;
      };
      struct P { int x; };
      int App::run(int argc) { return 0; }
      using Str = std::string;
      }`,
    outline: [
      "class Box 2-11@4 +",
      "  method Box 6-6@6 +",
      "  method get 7-7@7 +",
      "  field count 8-8@8 +",
      "  field v_ 10-10@10",
      "struct P 12-12@12 +",
      "  field x 12-12@12 +",
      "function App::run 13-13@13 +",
      "type Str 14-14@14 +",
    ],
    imports: [["<vector>", "*=*"]],
  },
  "Java: a class with members, an interface, a record": {
    support: java,
    text: code`
      package com.x;
      import com.x.Y;
      import com.x.*;
      import static org.junit.Assert.assertEquals;
      /** A box. */
      @Deprecated
      public class Box<T> extends Base implements I {
        private final T v;
        public static int A = 1, B;
        /** Make. */
        public Box(T v) { this.v = v; }
        public T get() { return v; }
        enum Kind { ONE, TWO }
        void run() { class Local {} }
      }
      interface I { void f(); }
      record R(int a) {}`,
    outline: [
      "class Box 4-14@6 +",
      "  field v 7-7@7",
      "  field A 8-8@8 +",
      "  field B 8-8@8 +",
      "  method Box 9-10@10 +",
      "  method get 11-11@11 +",
      "  enum Kind 12-12@12 +",
      "    field ONE 12-12@12 +",
      "    field TWO 12-12@12 +",
      "  method run 13-13@13 +",
      "interface I 15-15@15 +",
      "  method f 15-15@15 +",
      "class R 16-16@16 +",
    ],
    imports: [
      ["com.x.Y", "Y=Y"],
      ["com.x.*", "*=*"],
      ["org.junit.Assert.assertEquals", "assertEquals=assertEquals"],
    ],
  },
  "C#: usings, a file-scoped namespace, members by visibility": {
    support: csharp,
    text: code`
      using System.Text;
      using IO = System.IO;
      using static System.Math;
      namespace App.Core;
      /// <summary>A box.</summary>
      public class Box<T> : IBox {
        private int v;
        public int Count { get; set; }
        public Box(int v) { this.v = v; }
        T Get() => default;
        public event EventHandler Changed;
      }
      public interface IBox { void F(); }
      public enum Kind { One, Two }
      struct P { public int X; }
      public delegate void D(int x);`,
    outline: [
      "class Box 4-11@5 +",
      "  field v 6-6@6",
      "  field Count 7-7@7 +",
      "  method Box 8-8@8 +",
      "  method Get 9-9@9",
      "  field Changed 10-10@10 +",
      "interface IBox 12-12@12 +",
      "  method F 12-12@12 +",
      "enum Kind 13-13@13 +",
      "  field One 13-13@13 +",
      "  field Two 13-13@13 +",
      "struct P 14-14@14 +",
      "  field X 14-14@14 +",
      "type D 15-15@15 +",
    ],
    imports: [
      ["System.Text", "*=*"],
      ["System.IO", "IO=*"],
      ["System.Math", "*=*"],
    ],
  },
  "Ruby: a module holding a class; require and require_relative": {
    support: ruby,
    text: code`
      require "json"
      require_relative "lib/x"
      require name
      # A box.
      module App
        class Box < Base
          # Make.
          def initialize(v)
            @v = v
          end
          def self.make = new(1)
        end
        VERSION = "1"
      end
      class App::Other; end
      def top(a) a end`,
    outline: [
      "module App 3-13@4 +",
      "  field VERSION 12-12@12 +",
      "class Box 5-11@5 +",
      "  method initialize 6-9@7 +",
      "  method make 10-10@10 +",
      "class Other 14-14@14 +",
      "function top 15-15@15 +",
    ],
    imports: [
      ["json", "*=*"],
      ["./lib/x", "*=*"],
    ],
  },
  "PHP: use statements, a class, an interface, a trait, an enum": {
    support: php,
    text: code`
      <?php
      namespace App\Models;
      use App\Contracts\HasName;
      use App\Support\{Str, Arr as A};
      use function App\helpers\format;
      require_once __DIR__ . '/x.php';
      /** A user. */
      final class User extends Model implements HasName {
          public const KIND = 'u';
          private ?string $name = null;
          public static function find(int $id): ?self { return null; }
          protected function hidden() {}
      }
      interface Named { public function name(): string; }
      trait T { function t() {} }
      enum Suit: string { case Hearts = 'H'; }
      function helper($a) { return $a; }`,
    outline: [
      "class User 6-12@7 +",
      "  field KIND 8-8@8 +",
      "  field name 9-9@9",
      "  method find 10-10@10 +",
      "  method hidden 11-11@11",
      "interface Named 13-13@13 +",
      "  method name 13-13@13 +",
      "trait T 14-14@14 +",
      "  method t 14-14@14 +",
      "enum Suit 15-15@15 +",
      "  field Hearts 15-15@15 +",
      "function helper 16-16@16 +",
    ],
    imports: [
      ["App\\Contracts\\HasName", "HasName=HasName"],
      ["App\\Support\\Str", "Str=Str"],
      ["App\\Support\\Arr", "A=Arr"],
      ["App\\helpers\\format", "format=format"],
      ["./x.php", "*=*"],
    ],
  },
  "Bash: sourced files, functions, top-level variables": {
    support: bash,
    text: code`
      #!/usr/bin/env bash
      source ./lib.sh
      . "$HOME/.profile"
      readonly ROOT=/srv
      # Deploy the app.
      deploy() {
        local target=$1
        rsync -a . "$target"
      }
      function clean { rm -rf build; }`,
    outline: ["variable ROOT 3-3@3 +", "function deploy 4-8@5 +", "function clean 9-9@9 +"],
    imports: [["./lib.sh", "*=*"]],
  },
  "Kotlin: classes, an interface, an enum, an object with a companion, top-level functions": {
    support: kotlin,
    text: code`
      package com.x
      import com.x.Y
      import com.x.*
      import com.z.Long as L
      /** A box. */
      data class Box<T>(val v: T) : Base() {
        private val hidden = 1
        fun get(): T = v
        companion object {
          const val A = 1
        }
      }
      interface Shape {
        fun area(): Double
      }
      enum class Kind {
        ONE, TWO
      }
      object Single {
        fun s() {}
      }
      typealias S = String
      internal fun top(a: Int): Int { return a }
      private fun hidden() = 1`,
    outline: [
      "class Box 4-11@5 +",
      "  field hidden 6-6@6",
      "  method get 7-7@7 +",
      "  field A 9-9@9 +",
      "interface Shape 12-14@12 +",
      "  method area 13-13@13 +",
      "enum Kind 15-17@15 +",
      "  field ONE 16-16@16 +",
      "  field TWO 16-16@16 +",
      "class Single 18-20@18 +",
      "  method s 19-19@19 +",
      "type S 21-21@21 +",
      "function top 22-22@22 +",
      "function hidden 23-23@23",
    ],
    imports: [
      ["com.x.Y", "Y=Y"],
      ["com.x.*", "*=*"],
      ["com.z.Long", "L=Long"],
    ],
  },
  "Zig: @import, a pub struct with fields and methods, functions": {
    support: zig,
    text: code`
      const std = @import("std");
      const Allocator = std.mem.Allocator;
      /// A point.
      pub const Point = struct {
          x: i32,
          y: i32,
          /// Add.
          pub fn add(self: Point, o: Point) Point {
              return .{ .x = self.x + o.x, .y = self.y + o.y };
          }
      };
      pub fn main() !void {
          const p = Point{ .x = 1, .y = 2 };
          _ = p;
      }
      fn helper() void {}`,
    outline: [
      "variable Allocator 1-1@1",
      "struct Point 2-10@3 +",
      "  field x 4-4@4 +",
      "  field y 5-5@5 +",
      "  method add 6-9@7 +",
      "function main 11-14@11 +",
      "function helper 15-15@15",
    ],
    imports: [["std", "std=*"]],
  },
  "Swift: a class, a protocol, a struct, an enum, an extension": {
    support: swift,
    text: code`
      import Foundation
      import struct Models.User
      /// A box.
      public class Box<T>: Base {
        private var v: T
        public let name: String = ""
        init(v: T) { self.v = v }
        public func get() -> T { return v }
      }
      protocol Shape { func area() -> Double }
      struct Point { var x: Int }
      enum Kind { case one, two }
      extension Box { func extra() {} }
      func top() {}
      typealias S = String`,
    outline: [
      "class Box 2-8@3 +",
      "  field v 4-4@4",
      "  field name 5-5@5 +",
      "  method init 6-6@6 +",
      "  method get 7-7@7 +",
      "interface Shape 9-9@9 +",
      "  method area 9-9@9 +",
      "struct Point 10-10@10 +",
      "  field x 10-10@10 +",
      "enum Kind 11-11@11 +",
      "  field one 11-11@11 +",
      "  field two 11-11@11 +",
      "class Box 12-12@12 +",
      "  method extra 12-12@12 +",
      "function top 13-13@13 +",
      "type S 14-14@14 +",
    ],
    imports: [
      ["Foundation", "*=*"],
      ["Models.User", "User=User"],
    ],
  },
  "Scala: a class and its companion object, a trait, a case class, an enum": {
    support: scala,
    text: code`
      package shop
      import scala.collection.mutable
      import shop.models.{User, Item => I}
      import shop.util._
      /** A box. */
      class Box[T](val v: T) extends Base {
        private val hidden = 1
        def get: T = v
      }
      object Box { def apply(v: Int) = new Box(v) }
      trait Shape { def area(): Double }
      case class Point(x: Int)
      enum Kind { case One, Two }
      def top(): Int = 1`,
    outline: [
      "class Box 4-8@5 +",
      "  field hidden 6-6@6",
      "  method get 7-7@7 +",
      "class Box 9-9@9 +",
      "  method apply 9-9@9 +",
      "trait Shape 10-10@10 +",
      "  method area 10-10@10 +",
      "class Point 11-11@11 +",
      "enum Kind 12-12@12 +",
      "  field One 12-12@12 +",
      "  field Two 12-12@12 +",
      "function top 13-13@13 +",
    ],
    imports: [
      ["scala.collection.mutable", "mutable=mutable"],
      ["shop.models", "User=User", "I=Item"],
      ["shop.util._", "*=*"],
    ],
  },
  "Elixir: a module, its public and private functions, @doc as the doc": {
    support: elixir,
    text: code`
      defmodule Shop.Cart do
        @moduledoc "A cart."
        alias Shop.Item
        alias Shop.{Price, Tax}
        import Enum, only: [map: 2]
        require Logger
        @doc "Total."
        def total(items) do
          Enum.sum(items)
        end
        defp hidden, do: 1
        defmacro m(x), do: x
      end`,
    outline: [
      "module Cart 0-12@0 +",
      "  method total 6-9@7 +",
      "  method hidden 10-10@10",
      "  method m 11-11@11 +",
    ],
    imports: [
      ["Shop.Item", "Item=*"],
      ["Shop.Price", "Price=*"],
      ["Shop.Tax", "Tax=*"],
      ["Enum", "*=*"],
      ["Logger", "Logger=*"],
    ],
  },
};

describe("outlines and imports", () => {
  it.each(Object.entries(CASES))("%s", (_, { support, text, outline, imports }) => {
    const parsed = support.parse(text);
    expect(summary(parsed.outline.declarations)).toEqual(outline);
    expect(importRows(parsed.imports)).toEqual(imports);
  });
});

describe("snippets", () => {
  it("keeps a C function's doc comment and elides its long body", () => {
    const text = code`
      /**
       * Sums a list.
       */
      int sum(const int *xs, int n) {
        int total = 0;
        for (int i = 0; i < n; i++) {
          total += xs[i];
        }
        assert(total >= 0);
        log_total(total);
        return total;
      }`;
    expect(declaration(c.parse(text).outline.declarations, "sum").snippet).toBe(code`
      /**
       * Sums a list.
       */
      int sum(const int *xs, int n) {
        …
      }`);
  });

  it("lists a long Java class's public members with their docs, bodies elided, private ones left out", () => {
    const text = code`
      /** Prices. */
      public class Prices {
        private int secret;
        /** The total. */
        public int total(int a) {
          int t = a;
          return t;
        }
        private void hidden() {
          secret = 2;
        }
      }`;
    expect(declaration(java.parse(text).outline.declarations, "Prices").snippet).toBe(code`
      /** Prices. */
      public class Prices {
        /** The total. */
        public int total(int a) {
          …
        }
      }`);
  });

  it("ends a Ruby method's snippet at its end", () => {
    const text = code`
      class Cart
        # The total in cents.
        def total(items)
          sum = 0
          items.each { |i| sum += i.price }
          sum
          sum
          sum
          sum
          sum
        end
      end`;
    expect(declaration(ruby.parse(text).outline.declarations, "total").snippet).toBe(
      "  # The total in cents.\n  def total(items)\n    …\n  end",
    );
  });
});

describe("the package or namespace a file declares (ModuleOutline.package)", () => {
  it.each([
    { support: java, text: "package org.apache.lang3;\nclass A {}", want: "org.apache.lang3" },
    { support: kotlin, text: "package com.shop.cart\nclass A", want: "com.shop.cart" },
    { support: scala, text: "package com.shop\nclass A", want: "com.shop" },
    {
      support: csharp,
      text: "using System;\nnamespace dnlib.DotNet {\n  class A {}\n}",
      want: "dnlib.DotNet",
    },
    { support: csharp, text: "namespace Shop.Cart;\nclass A {}", want: "Shop.Cart" },
    { support: php, text: "<?php\nnamespace Monolog\\Handler;\nclass A {}", want: "Monolog\\Handler" },
    { support: java, text: "class A {}", want: undefined },
    {
      name: "a file's head parsed alone, its namespace not closed",
      support: csharp,
      text: "using System;\nnamespace dnlib.DotNet {\n  class A {\n    void F() {",
      want: "dnlib.DotNet",
    },
    { support: php, text: "<?php\nnamespace App\\Http {\n  class A {", want: "App\\Http" },
  ])("$support.family: $want", ({ support, text, want }) => {
    expect(support.parse(text).outline.package).toBe(want);
  });
});

describe("references", () => {
  it.each([
    {
      support: c,
      lines: ["p->next = make_node(", "  list_len(l)"],
      want: ["l@0", "list_len@0", "make_node@1", "p.next@1"],
    },
    {
      support: cpp,
      lines: ["auto b = app::Box<int>(", '/* Box::skip( */ "str("'],
      want: ["app.Box@1", "b@1"],
    },
    {
      support: java,
      lines: ["Shape s = new Shape(", "return Util.area(s);"],
      want: ["s@0", "Util.area@0", "Shape@1"],
    },
    { support: csharp, lines: ["var x = Money.From(", "// Skip(it)"], want: ["Money.From@1", "x@1"] },
    {
      support: ruby,
      lines: ["cart = Shop::Cart.new(", "# Hidden.call"],
      want: ["Shop.Cart.new@1", "cart@1"],
    },
    { support: php, lines: ["$u = User::find(", "$this->repo->save($u);"], want: ["$u@0", "User.find@1"] },
    { support: kotlin, lines: ["val s = Shape.create(", "// Hidden.x"], want: ["Shape.create@1", "s@1"] },
    {
      support: zig,
      lines: ["const p = Point.init(", 'std.debug.print("{}", .{p});'],
      want: ["p@0", "std.debug@0", "Point.init@1"],
    },
    { support: swift, lines: ["let b = Box(v: 1)", "b.get()"], want: ["b.get@0", "v@1", "Box@1", "b@1"] },
    { support: scala, lines: ["val p = Point(", "Box.apply(p)"], want: ["p@0", "Box.apply@0", "Point@1"] },
    { support: elixir, lines: ["items |> Cart.total(", "# Hidden.x"], want: ["Cart.total@1", "items@1"] },
    {
      support: bash,
      lines: ['deploy "$TARGET" && build_all', "echo '$nope'"],
      want: ["build_all@1", "deploy@1"],
    },
  ])("$support.family: $lines", ({ support, lines, want }) => {
    expect(referenceRows(support.references(lines))).toEqual(want);
  });
});

describe("a header read from disk, by its text", () => {
  it.each([
    { text: "int twice(int x);\nstruct point { int x, y; };\n", family: "c" },
    { text: '#ifdef __cplusplus\nextern "C" {\n#endif\nvoid f(void);\n', family: "c" },
    { text: "/* not a class */\ntypedef int count;\n", family: "c" },
    { text: "class Scanner {\n public:\n  void scan();\n};\n", family: "cpp" },
    { text: "namespace YAML {\nvoid f();\n}\n", family: "cpp" },
    { text: "template <typename T> T id(T x);\n", family: "cpp" },
    { text: "std::string name();\n", family: "cpp" },
  ])("$family: $text", ({ text, family }) => {
    expect(headerFamily(text)).toBe(family);
  });
});

describe("families by what editors send", () => {
  it.each([
    { languageId: "c", path: "/w/a.c", family: "c" },
    { languageId: undefined, path: "/w/include/a.h", family: "c" },
    { languageId: "c", path: "/w/include/a.h", family: "c" },
    { languageId: "c++", path: "/w/a.cc", family: "cpp" },
    { languageId: "cs", path: "/w/A.cs", family: "csharp" },
    { languageId: "c-sharp", path: "/w/A.cs", family: "csharp" },
    { languageId: "sh", path: "/w/run", family: "bash" },
    { languageId: undefined, path: "/w/Build.kts", family: "kotlin" },
    { languageId: undefined, path: "/w/lib/cart.ex", family: "elixir" },
    { languageId: "objective-c", path: "/w/a.m", family: undefined },
  ])("$languageId $path → $family", ({ languageId, path, family }) => {
    expect(familyOf(languageId, path)).toBe(family);
  });
});
