// Ruby's rules (issue 17): classes as namespaces, bases (superclass, mixins, an assigned instance's class), names
// ending in `?`/`!`, the nesting around the cursor read from indentation, constants found by their namespace path
// (`Pry::Helpers::Text` → `pry/helpers/text.rb`), and inherited methods, on real-looking code.
import { beforeAll, describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { rubyImplicit } from "../../src/context/resolve/ruby.js";
import { indentedNesting, rubyMixinLine, rubyTypeLine } from "../../src/context/scan/nesting.js";
import type { ParsedModule, Reference } from "../../src/context/types.js";
import { code, referenceRows, summary, VirtualHost } from "./helpers.js";

const { ruby } = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await ruby.ready?.();
});

describe("Ruby outline", () => {
  it("lists a class nested in a class at the top level (a namespace), with its bases", () => {
    const { outline } = ruby.parse(code`
      class Pry
        class Command::Cat < Pry::ClassCommand
          include Helpers::Text
          extend self
          def process; end
        end
        Commands = Pry::CommandSet.new
        def self.run; end
      end
      Pry::Shortcuts = Pry::CommandSet.new(1)`);
    expect(summary(outline.declarations)).toEqual([
      "class Pry 0-8@0 +",
      "  field Commands 6-6@6 +",
      "  method run 7-7@7 +",
      "class Cat 1-5@1 +",
      "  method process 4-4@4 +",
      "variable Shortcuts 9-9@9 +",
    ]);
    const bases = Object.fromEntries(
      outline.declarations.flatMap((d) => [d, ...(d.members ?? [])]).map((d) => [d.name, d.bases ?? []]),
    );
    expect(bases).toEqual({
      Pry: [],
      Commands: ["Pry::CommandSet"],
      run: [],
      Cat: ["Pry::ClassCommand", "Helpers::Text"],
      process: [],
      Shortcuts: ["Pry::CommandSet"],
    });
  });
});

describe("Ruby references", () => {
  it.each([
    { lines: ["cart = Shop::Cart.new(", "# Hidden.call"], want: ["Shop.Cart.new@1", "cart@1"] },
    {
      lines: ["return unless not_a_real_file?(", "x.save! if a != b"],
      want: ["b@0", "a@0", "x.save!@0", "not_a_real_file?@1"],
    },
    { lines: ["Pry::Method::Patcher.code_for("], want: ["Pry.Method.Patcher.code_for@0"] },
  ])("$lines", ({ lines, want }) => {
    expect(referenceRows(ruby.references(lines))).toEqual(want);
  });
});

describe("the nesting around the cursor, by indentation", () => {
  it.each([
    {
      name: "classes and modules whose lines are less indented, outermost first; not a method or a singleton class",
      lines: [
        "class Pry",
        "  class Command::Edit < Pry::ClassCommand",
        "    class << self",
        "      def x; end",
        "    end",
        "    def process",
        "      # class Fake",
        "",
        "      open(Pry::Editor.",
      ],
      want: [
        { name: "Pry", path: ["Pry"], bases: [] },
        { name: "Edit", path: ["Command", "Edit"], bases: ["Pry::ClassCommand"] },
      ],
    },
    {
      name: "a class closed above the cursor is not around it",
      lines: ["module A", "  class B", "  end", "  C."],
      want: [{ name: "A", path: ["A"], bases: [] }],
    },
    { name: "the top level", lines: ["require 'x'", "X."], want: [] },
    {
      name: "the mixins the innermost body adds above the cursor, at its own indentation (not a nested block's)",
      lines: [
        "class Pry",
        "  class CodeCollector < Base",
        "    include Helpers::CommandHelpers",
        "    extend self",
        "    class << self",
        "      include Hidden",
        "    end",
        "    extend Forwardable, ::Pry::Text",
        "    def process",
        "      one_index_range(",
      ],
      want: [
        { name: "Pry", path: ["Pry"], bases: [] },
        {
          name: "CodeCollector",
          path: ["CodeCollector"],
          bases: ["Base", "Helpers::CommandHelpers", "Forwardable", "Pry::Text"],
        },
      ],
    },
  ])("$name", ({ lines, want }) => {
    expect(indentedNesting(lines, rubyTypeLine, "#", rubyMixinLine)).toEqual(want);
  });
});

describe("Ruby constants by their namespace path", () => {
  const from: ParsedModule = {
    path: "/w/lib/pry/commands/cat.rb",
    imports: [],
    outline: { declarations: [], reexports: [] },
  };
  it.each([
    {
      name: "a qualified constant under each prefix of the nesting, innermost first, then beside the file",
      args: ["Text", { qualifiers: ["Helpers"], nesting: ["Pry", "Command"] }] as const,
      first: [
        "/w/lib/pry/command/helpers/text.rb",
        "/w/lib/pry/helpers/text.rb",
        "/w/lib/helpers/text.rb",
        "/w/lib/pry/commands/helpers/text.rb",
        "/w/lib/pry/commands/cat/helpers/text.rb",
      ],
    },
    {
      name: "a bare constant: its namespaces, then beside the file and in the folder named after it",
      args: ["FileFormatter", { qualifiers: [], nesting: ["Pry"] }] as const,
      first: [
        "/w/lib/pry/file_formatter.rb",
        "/w/lib/pry/commands/file_formatter.rb",
        "/w/lib/pry/commands/cat/file_formatter.rb",
      ],
    },
    { name: "not a method name", args: ["bold", { qualifiers: [], nesting: ["Pry"] }] as const, first: [] },
  ])("$name", ({ args, first }) => {
    const paths = rubyImplicit(args[0], from, { root: "/w", rubyLoadPath: ["/w/lib"] }, args[1])
      .map((c) => c.path)
      .filter((p) => !p.includes("/app/"));
    expect(paths.slice(0, first.length)).toEqual(first);
  });
});

describe("Ruby resolution without require", () => {
  const files: Record<string, string> = {
    "/w/lib/pry/helpers/text.rb": code`
      class Pry
        module Helpers
          module Text
            def bold(text)
              "\e[1m#{text}\e[0m"
            end
          end
        end
      end`,
    "/w/lib/pry/command.rb": code`
      class Pry
        class Command
          include Helpers::Text
          def output; end
        end
      end`,
    "/w/lib/pry/class_command.rb": code`
      class Pry
        class ClassCommand < Command
          def slop; end
        end
      end`,
    "/w/lib/pry/command_set.rb": code`
      class Pry
        class CommandSet
          def add_command(command); end
        end
      end`,
    "/w/lib/pry.rb": code`
      class Pry
        Commands = Pry::CommandSet.new
      end`,
    "/w/lib/pry/commands/edit.rb": code`
      class Pry
        class Command::Edit < Pry::ClassCommand
          def process
            x = 1
          end
        end
      end`,
  };
  const host = new VirtualHost(files);
  const env = { root: "/w", rubyLoadPath: ["/w/lib"] };
  const current = host.parse("/w/lib/pry/commands/edit.rb");
  const lines = files["/w/lib/pry/commands/edit.rb"]!.split("\n").slice(0, 4);
  const at = { line: 3, nesting: indentedNesting(lines, rubyTypeLine) };
  const resolve = async (reference: Reference) =>
    (await findDeclarations(ruby, current, [reference], host, env, {}, at)).map(
      (f) => `${f.path}:${f.declaration.name}`,
    );

  it.each([
    {
      name: "a qualified constant by its path",
      reference: { name: "Pry", member: "Helpers", chain: ["Pry", "Helpers", "Text"], distance: 0 },
      want: ["/w/lib/pry/helpers/text.rb:Text"],
    },
    {
      name: "a bare method of the superclass's superclass's mixin (the class around the cursor, read from its line)",
      reference: { name: "bold", distance: 0 },
      want: ["/w/lib/pry/helpers/text.rb:bold"],
    },
    {
      name: "a method of a constant's class, the constant assigned an instance",
      reference: { name: "Pry", member: "Commands", chain: ["Pry", "Commands", "add_command"], distance: 0 },
      want: ["/w/lib/pry.rb:Pry", "/w/lib/pry/command_set.rb:add_command"],
    },
    {
      name: "a method the superclass inherits, after the class's name",
      reference: {
        name: "Pry",
        member: "ClassCommand",
        chain: ["Pry", "ClassCommand", "output"],
        distance: 0,
      },
      want: ["/w/lib/pry/class_command.rb:ClassCommand", "/w/lib/pry/command.rb:output"],
    },
  ])("$name", async ({ reference, want }) => {
    expect(await resolve(reference)).toEqual(want);
  });
});
