import { beforeAll, describe, expect, it } from "vitest";
import * as languages from "../../src/context/lang/index.js";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import type { LanguageSupport } from "../../src/context/types.js";

/**
 * Import statements of each family, as they are written inside a file's code (a `require` in a function, an `use`
 * in a block): the lines near the cursor are parsed for imports only when they match the family's hint, so every
 * form the parser reads as an import must match it.
 */
const FORMS: Record<string, { imports: string[]; plain: string }> = {
  typescript: {
    imports: [
      'import { a } from "./a.js";',
      'import * as ns from "./ns";',
      'import def from "./d";',
      'const fs = require("node:fs");',
      'import {\n  a,\n  b,\n} from "./ab";',
    ],
    plain: "const importance = requirement(a, b);",
  },
  python: {
    imports: ["import os", "from .models import User", "from pkg import (\n    a,\n    b,\n)"],
    plain: "important = imports_done(x)",
  },
  go: { imports: ['import "fmt"', 'import (\n\t"os"\n\tstr "strings"\n)'], plain: "imported := importer(x)" },
  rust: {
    imports: ["use std::io::Read;", "use crate::{a, b};", "mod parser;"],
    plain: "let user = used(mode);",
  },
  lua: { imports: ['local json = require("json")', "local m = require 'mod'"], plain: "local required = x" },
  c: {
    imports: ['#include "util.h"', "#include <stdio.h>", '  #  include "deep/x.h"'],
    plain: "int include = 1;",
  },
  cpp: { imports: ['#include "util.hpp"', "#include <vector>"], plain: "auto included = f();" },
  java: { imports: ["import java.util.List;", "import static org.a.B.m;"], plain: "int important = 1;" },
  csharp: { imports: ["using System.Text;", "using static System.Math;"], plain: "var user = Used();" },
  ruby: {
    imports: ["require 'json'", 'require_relative "lib/a"', "load 'tasks.rb'"],
    plain: "requirement = loaded(x)",
  },
  php: {
    imports: [
      "<?php\nuse App\\Models\\User;",
      "<?php\nrequire_once __DIR__ . '/a.php';",
      "<?php\ninclude 'b.php';",
    ],
    plain: "<?php\n$user = $used->included();",
  },
  bash: {
    imports: ["source ./lib.sh", ". ./env.sh", "if true; then . ./x.sh; fi"],
    plain: "sourced=1; echo .",
  },
  kotlin: { imports: ["import kotlin.math.max", "import a.b.*"], plain: "val important = 1" },
  scala: { imports: ["import scala.util.Try", "import a.b._"], plain: "val important = 1" },
  swift: { imports: ["import Foundation"], plain: "let important = 1" },
  zig: { imports: ['const std = @import("std");'], plain: "const imported = 1;" },
  elixir: {
    imports: ["alias MyApp.Repo", "import Ecto.Query", "require Logger", "use GenServer"],
    plain: "x = aliases(y)",
  },
};

const supports = Object.entries(languages).filter(
  (entry): entry is [string, LanguageSupport] =>
    typeof entry[1] === "object" && entry[1] !== null && "family" in entry[1] && "parse" in entry[1],
);

beforeAll(async () => {
  await Promise.all(Object.values(SYNTAX_SUPPORTS).map((support) => support.ready?.()));
});

describe("importHint", () => {
  it("is given for every family with a parser", () => {
    expect(supports.filter(([, support]) => !support.importHint).map(([name]) => name)).toEqual([]);
    expect(Object.keys(FORMS).sort()).toEqual(supports.map(([name]) => name).sort());
  });

  describe.each(supports)("%s", (name, support) => {
    const forms = FORMS[name]!;
    it.each(forms.imports)("matches %j, which its parser reads as an import", (text) => {
      expect(support.parse(text).imports.length).toBeGreaterThan(0);
      expect(support.importHint?.test(text)).toBe(true);
    });
    it(`does not match ${JSON.stringify(forms.plain)}`, () => {
      expect(support.parse(forms.plain).imports).toEqual([]);
      expect(support.importHint?.test(forms.plain)).toBe(false);
    });
  });
});
