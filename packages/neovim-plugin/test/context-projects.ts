// The projects of the repository-context test in a real editor (test/e2e/context_spec.lua): one per language family
// the server resolves, each a small project as people lay one out, with the project file that marks its root and no
// version control. The open file uses a name declared in a file the editor never opens; the cursor (`│`) ends the
// line after that name, and the spec types `typed` there. The request that follows must carry each declaration
// under its file's path comment, then the open file's path comment, then the open file up to the cursor.

/** Where the cursor is in the open file: at the end of its line. */
export const CURSOR = "│";

/** A declaration the request must carry: the lines of `path` (relative to the project) it must contain. */
export interface ExpectedDeclaration {
  path: string;
  /** Consecutive lines of the file, as the context block must hold them (without the final newline). */
  lines: string;
}

/** One project: a row of the context test. */
export interface ContextProject {
  /** The language family, as the test's name says it. */
  family: string;
  /** Every file of the project, by path relative to its root; the open one holds `CURSOR`. */
  files: Record<string, string>;
  /** The file Neovim opens. */
  open: string;
  /** The filetype Neovim detects for it, which it sends as the LSP language id. */
  filetype: string;
  /** What the spec types at the cursor. */
  typed: string;
  /** What the request must carry, each under its file's path line (in any order). */
  declarations: ExpectedDeclaration[];
  /** The language's line comment, which opens each path line. Default `//`. */
  comment?: string;
}

export const CONTEXT_PROJECTS: ContextProject[] = [
  {
    family: "TypeScript",
    files: {
      "package.json": '{ "name": "shop", "type": "module" }\n',
      "lib/pricing.ts": `/** Formats an amount in cents as a price tag, e.g. 1999 → "$19.99". */
export function formatPrice(cents: number, currency = "USD"): string {
  const amount = (cents / 100).toFixed(2);
  return currency === "USD" ? \`$\${amount}\` : \`\${amount} \${currency}\`;
}
`,
      "src/cart.ts": `import { formatPrice } from "../lib/pricing.js";

export function priceTag(item: { name: string; cents: number }): string {
  const tag = formatPrice${CURSOR}
  return \`\${item.name}: \${tag}\`;
}
`,
    },
    open: "src/cart.ts",
    filetype: "typescript",
    typed: "(",
    declarations: [
      {
        path: "lib/pricing.ts",
        lines: 'export function formatPrice(cents: number, currency = "USD"): string {',
      },
    ],
  },
  {
    // A Makefile project: the sources and headers side by side, the root the file's folder.
    family: "C",
    files: {
      Makefile: "CFLAGS = -Wall -O2\n\nmeter: main.o util.o\n\t$(CC) -o $@ $^\n",
      "util.h": `#ifndef UTIL_H
#define UTIL_H

/* Clamps v into [lo, hi]. */
int clamp(int v, int lo, int hi);

#endif
`,
      "util.c": `#include "util.h"

int clamp(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
`,
      "main.c": `#include <stdio.h>
#include "util.h"

int main(void) {
  int level = clamp${CURSOR}
  printf("%d\\n", level);
  return 0;
}
`,
    },
    open: "main.c",
    filetype: "c",
    typed: "(",
    declarations: [
      { path: "util.h", lines: "/* Clamps v into [lo, hi]. */\nint clamp(int v, int lo, int hi);" },
    ],
  },
  {
    // clangd's setup: compile_flags.txt at the root names the include folder.
    family: "C++",
    files: {
      "compile_flags.txt": "-std=c++17\n-Iinclude\n",
      "include/shape.hpp": `#pragma once
#include <string>

/** A named shape with an area. */
class Shape {
 public:
  explicit Shape(std::string name, double area);
  double area() const;

 private:
  std::string name_;
  double area_;
};
`,
      "src/shape.cpp": `#include "shape.hpp"

Shape::Shape(std::string name, double area) : name_(std::move(name)), area_(area) {}

double Shape::area() const { return area_; }
`,
      "src/main.cpp": `#include <iostream>
#include "shape.hpp"

int main() {
  Shape square = Shape${CURSOR}
  std::cout << square.area() << "\\n";
}
`,
    },
    open: "src/main.cpp",
    filetype: "cpp",
    typed: "(",
    declarations: [
      { path: "include/shape.hpp", lines: "class Shape {\n  explicit Shape(std::string name, double area);" },
    ],
  },
  {
    // Maven: a class imported from another package, and one of the same package (no import).
    family: "Java",
    files: {
      "pom.xml": `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
</project>
`,
      "src/main/java/com/acme/model/Item.java": `package com.acme.model;

/** A line of an order. */
public class Item {
  private final String name;
  private final long cents;

  public Item(String name, long cents) {
    this.name = name;
    this.cents = cents;
  }

  public long cents() {
    return cents;
  }
}
`,
      "src/main/java/com/acme/shop/Price.java": `package com.acme.shop;

/** Formats amounts in cents. */
public final class Price {
  public static String format(long cents) {
    return String.format("$%d.%02d", cents / 100, cents % 100);
  }
}
`,
      "src/main/java/com/acme/shop/Cart.java": `package com.acme.shop;

import com.acme.model.Item;

public class Cart {
  public String total(Item item) {
    return Price.format${CURSOR}
  }
}
`,
    },
    open: "src/main/java/com/acme/shop/Cart.java",
    filetype: "java",
    typed: "(",
    declarations: [
      { path: "src/main/java/com/acme/shop/Price.java", lines: "public final class Price {" },
      { path: "src/main/java/com/acme/model/Item.java", lines: "public class Item {" },
    ],
  },
  {
    // An SDK-style project: the namespace of another folder, found through `using` and the namespace-folder convention.
    family: "C#",
    files: {
      "Shop.csproj": `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
</Project>
`,
      "Models/Product.cs": `namespace Shop.Models;

/// <summary>Something for sale.</summary>
public class Product
{
    public Product(string name, decimal price)
    {
        Name = name;
        Price = price;
    }

    public string Name { get; }
    public decimal Price { get; }
}
`,
      "Services/Checkout.cs": `using Shop.Models;

namespace Shop.Services;

public class Checkout
{
    public Product Sample()
    {
        return new Product${CURSOR}
    }
}
`,
    },
    open: "Services/Checkout.cs",
    filetype: "cs",
    typed: "(",
    declarations: [{ path: "Models/Product.cs", lines: "public class Product" }],
  },
  {
    family: "Ruby",
    comment: "#",
    files: {
      Gemfile: 'source "https://rubygems.org"\n\ngem "rake"\n',
      "lib/shop/item.rb": `module Shop
  # A line of an order.
  class Item
    attr_reader :name, :cents

    def initialize(name, cents)
      @name = name
      @cents = cents
    end
  end
end
`,
      "lib/shop/cart.rb": `require_relative "item"

module Shop
  class Cart
    def add(name, cents)
      item = Item.new${CURSOR}
      items << item
    end
  end
end
`,
    },
    open: "lib/shop/cart.rb",
    filetype: "ruby",
    typed: "(",
    declarations: [{ path: "lib/shop/item.rb", lines: "  class Item" }],
  },
  {
    family: "PHP",
    files: {
      "composer.json": `{
  "name": "acme/shop",
  "autoload": { "psr-4": { "App\\\\": "src/" } }
}
`,
      "src/Models/User.php": `<?php

namespace App\\Models;

/** Someone with an account. */
class User
{
    public function __construct(public string $name, public string $email)
    {
    }
}
`,
      "src/Http/Controller.php": `<?php

namespace App\\Http;

use App\\Models\\User;

class Controller
{
    public function register(string $name, string $email): User
    {
        return new User${CURSOR}
    }
}
`,
    },
    open: "src/Http/Controller.php",
    filetype: "php",
    typed: "(",
    declarations: [{ path: "src/Models/User.php", lines: "class User" }],
  },
  {
    // A module's package imported by another.
    family: "Go",
    files: {
      "go.mod": "module example.com/shop\n\ngo 1.22\n",
      "pricing/pricing.go": `package pricing

// Total sums the prices in cents.
func Total(prices []int) int {
\tsum := 0
\tfor _, p := range prices {
\t\tsum += p
\t}
\treturn sum
}
`,
      "cart/cart.go": `package cart

import "example.com/shop/pricing"

func Due(prices []int) int {
\treturn pricing.Total${CURSOR}
}
`,
    },
    open: "cart/cart.go",
    filetype: "go",
    typed: "(",
    declarations: [
      {
        path: "pricing/pricing.go",
        lines: "// Total sums the prices in cents.\nfunc Total(prices []int) int {",
      },
    ],
  },
  {
    family: "Python",
    comment: "#",
    files: {
      "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\n',
      "shop/__init__.py": "",
      "shop/db.py": `import sqlite3


def connect(url: str, timeout: float = 5.0) -> sqlite3.Connection:
    """Open the database at url."""
    return sqlite3.connect(url, timeout=timeout)
`,
      "shop/main.py": `from .db import connect


def main():
    conn = connect${CURSOR}
    return conn
`,
    },
    open: "shop/main.py",
    filetype: "python",
    typed: "(",
    declarations: [
      {
        path: "shop/db.py",
        lines:
          'def connect(url: str, timeout: float = 5.0) -> sqlite3.Connection:\n    """Open the database at url."""',
      },
    ],
  },
  {
    family: "Rust",
    files: {
      "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/pricing.rs": `/// Formats an amount in cents as a price tag.
pub fn format_price(cents: u64) -> String {
    format!("\${}.{:02}", cents / 100, cents % 100)
}
`,
      "src/main.rs": `mod pricing;

use crate::pricing::format_price;

fn main() {
    let tag = format_price${CURSOR}
    println!("{tag}");
}
`,
    },
    open: "src/main.rs",
    filetype: "rust",
    typed: "(",
    declarations: [
      {
        path: "src/pricing.rs",
        lines: "/// Formats an amount in cents as a price tag.\npub fn format_price(cents: u64) -> String {",
      },
    ],
  },
  {
    // A Neovim-plugin-like tree: no project file, the root is the working directory or the file's folder.
    family: "Lua",
    comment: "--",
    files: {
      "pricing.lua": `local M = {}

--- Formats an amount in cents as a price tag.
function M.format_price(cents, currency)
  return string.format("%s%d.%02d", currency or "$", cents // 100, cents % 100)
end

return M
`,
      "cart.lua": `local pricing = require("pricing")

local function tag(item)
  return item.name .. ": " .. pricing.format_price${CURSOR}
end

return { tag = tag }
`,
    },
    open: "cart.lua",
    filetype: "lua",
    typed: "(",
    declarations: [
      {
        path: "pricing.lua",
        lines: "--- Formats an amount in cents as a price tag.\nfunction M.format_price(cents, currency)",
      },
    ],
  },
];

/** The open file's text without the cursor, and the text before the cursor. */
export function openFile(project: ContextProject): { text: string; before: string; line: number } {
  const source = project.files[project.open];
  if (source === undefined) throw new Error(`${project.family}: ${project.open} is not among its files`);
  const at = source.indexOf(CURSOR);
  if (at === -1 || source[at + CURSOR.length] !== "\n") {
    throw new Error(`${project.family}: ${project.open} needs ${CURSOR} at the end of a line`);
  }
  const before = source.slice(0, at);
  return { text: before + source.slice(at + CURSOR.length), before, line: before.split("\n").length };
}
