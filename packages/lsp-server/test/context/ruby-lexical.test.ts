// Ruby's `X::Y` by the lexical scope of its use (issue 24, item 3): the constant's full path as a file declares it,
// the paths `Module.nesting` gives a use, a gem's namespace folder read from the file's own place, and resolution
// that reaches the file declaring `X::Y` before the required files that merely reopen `X`.
import { beforeAll, describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { wantedPaths } from "../../src/context/declarations/lexical-constants.js";
import { SYNTAX_SUPPORTS } from "../../src/context/lang/index.js";
import { namespaceFolders, rubyImplicit } from "../../src/context/resolve/ruby.js";
import { rubyConstantPath } from "../../src/context/scan/constant-path.js";
import { indentedNesting, rubyTypeLine } from "../../src/context/scan/nesting.js";
import type { ParsedModule, Reference } from "../../src/context/types.js";
import { code, VirtualHost } from "./helpers.js";

const { ruby } = SYNTAX_SUPPORTS;

beforeAll(async () => {
  await ruby.ready?.();
});

function parsed(path: string, text: string): ParsedModule {
  return { path, ...ruby.parse(text) };
}

describe("a declaration's full constant path", () => {
  const module = () =>
    parsed(
      "/w/lib/pry/commands/cat.rb",
      code`
      class Pry
        class Command::Cat < Pry::ClassCommand
          MAX = 3
          def process; end
        end
        module Helpers
          # A doc line.
          class Text; end
        end
        Commands = CommandSet.new
      end
      Pry::Shortcuts = Pry::CommandSet.new
      class ::Outside; end`,
    );
  const byName = (name: string) => module().outline.declarations.find((d) => d.name === name)!;
  it.each([
    { name: "a top-level class", of: "Pry", want: ["Pry"] },
    {
      name: "a class written with its namespace, inside another",
      of: "Cat",
      want: ["Pry", "Command", "Cat"],
    },
    {
      name: "a class in a module in a class, a doc comment above it",
      of: "Text",
      want: ["Pry", "Helpers", "Text"],
    },
    {
      name: "a constant assigned with its path at the top level",
      of: "Shortcuts",
      want: ["Pry", "Shortcuts"],
    },
    { name: "a class written from the root", of: "Outside", want: ["Outside"] },
  ])("$name", ({ of, want }) => {
    expect(rubyConstantPath(module(), byName(of))).toEqual(want);
  });
  it("a constant of a class: its container's path, then its name", () => {
    const cat = byName("Cat");
    const max = cat.members!.find((m) => m.name === "MAX")!;
    expect(rubyConstantPath(module(), max, cat)).toEqual(["Pry", "Command", "Cat", "MAX"]);
  });
});

describe("the paths a qualified constant may have at its use", () => {
  it.each([
    {
      name: "under each prefix of the nesting, innermost first",
      args: ["Y", ["X"], ["A", "B"], []] as const,
      want: ["A::B::X::Y", "A::X::Y", "X::Y"],
    },
    {
      name: "then under the enclosing class's bases",
      args: ["Y", ["X"], ["A"], ["Base"]] as const,
      want: ["A::X::Y", "X::Y", "A::Base::X::Y", "Base::X::Y"],
    },
    { name: "at the top level", args: ["CommandSet", ["Pry"], [], []] as const, want: ["Pry::CommandSet"] },
  ])("$name", ({ args, want }) => {
    const [name, qualifiers, nesting, bases] = args;
    expect(wantedPaths(name, qualifiers, nesting, bases).map((p) => p.join("::"))).toEqual(want);
  });
});

describe("a gem's namespace folders, from the file's own place", () => {
  it.each([
    {
      name: "a folder not named after its namespace (rubygems holds Gem::)",
      path: "/w/lib/rubygems/commands/install_command.rb",
      text: "class Gem::Commands::InstallCommand < Gem::Command\nend",
      want: ["Gem → /w/lib/rubygems"],
    },
    {
      name: "the gem's root file",
      path: "/w/lib/rubygems.rb",
      text: "module Gem\n  VERSION = '1'\nend",
      want: ["Gem → /w/lib/rubygems"],
    },
    {
      name: "folders named after their namespaces: nothing to add",
      path: "/w/lib/pry/command_set.rb",
      text: "class Pry\n  class CommandSet\n  end\nend",
      want: [],
    },
    {
      name: "a file whose path says nothing of its namespace",
      path: "/w/lib/rubygems/util/licenses.rb",
      text: "class Gem::Licenses\nend",
      want: [],
    },
    { name: "outside the load path", path: "/w/test/test_x.rb", text: "module Gem\nend", want: [] },
  ])("$name", ({ path, text, want }) => {
    const found = namespaceFolders(parsed(path, text), ["/w/lib"]);
    expect(found.map((f) => `${f.namespace.join("::")} → ${f.folder}`)).toEqual(want);
  });

  it("the types around the cursor say it too, when the outline of the file being edited lacks them", () => {
    const from = parsed("/w/lib/rubygems/installer.rb", "");
    const found = namespaceFolders(from, ["/w/lib"], ["Gem", "Installer"]);
    expect(found.map((f) => `${f.namespace.join("::")} → ${f.folder}`)).toEqual(["Gem → /w/lib/rubygems"]);
  });

  it("gives the constant's file in that folder, after the namespaces of the use", () => {
    const from = parsed("/w/lib/rubygems/installer.rb", "class Gem::Installer\n  def install; end\nend");
    const paths = rubyImplicit(
      "Specification",
      from,
      { root: "/w", rubyLoadPath: ["/w/lib"] },
      {
        qualifiers: ["Gem"],
        nesting: ["Gem", "Installer"],
      },
    ).map((c) => c.path);
    const at = (p: string) => paths.indexOf(p);
    expect(at("/w/lib/rubygems/specification.rb")).toBeGreaterThan(-1);
    // Ruby looks for `Gem` in Gem::Installer first (`Gem::Installer::Gem::Specification`).
    expect(at("/w/lib/rubygems/installer/gem/specification.rb")).toBeGreaterThan(-1);
    expect(at("/w/lib/rubygems/installer/gem/specification.rb")).toBeLessThan(
      at("/w/lib/rubygems/specification.rb"),
    );
  });
});

describe("X::Y in a file that requires many files of its gem", () => {
  // Every file reopens `class Pry`; the first required one is not where `Pry::CommandSet` is.
  const files: Record<string, string> = {
    "/w/lib/pry.rb": code`
      require 'pry/version'
      require 'pry/helpers'
      require 'pry/command_set'
      require 'pry/registry'

      Pry::Commands = Pry::CommandSet.new`,
    "/w/lib/pry/version.rb": code`
      class Pry
        VERSION = '0.13.1'.freeze
      end`,
    "/w/lib/pry/helpers.rb": code`
      class Pry
        module Helpers
          def self.tablify; end
        end
      end`,
    "/w/lib/pry/command_set.rb": code`
      class Pry
        # Commands of a REPL.
        class CommandSet
          def add_command(command); end
        end
      end`,
    "/w/lib/pry/registry.rb": code`
      class Pry
        module Registry
          Table = Helpers::Table
        end
        # The registry's own set: not Pry::CommandSet.
        class Registry::CommandSet
          def lookup; end
        end
      end`,
    "/w/lib/pry/helpers/table.rb": code`
      class Pry
        module Helpers
          class Table
            def rows; end
          end
        end
      end`,
    "/w/lib/pry/commands/edit.rb": code`
      class Pry
        class Command::Edit < Pry::ClassCommand
          def process
            Helpers::Table.
          end
        end
      end`,
    "/w/lib/pry/class_command/options/flag.rb": code`
      class Pry
        class ClassCommand
          module Options
            class Flag; end
          end
        end
      end`,
    "/w/lib/pry/options/flag.rb": code`
      # Under Pry, but Pry::Options::Flag is not what the use means: Pry::Options has no such file's Flag.
      module Other
        class Flag; end
      end`,
  };
  const env = { root: "/w", rubyLoadPath: ["/w/lib"] };

  async function resolve(file: string, line: number, reference: Reference) {
    const host = new VirtualHost(files);
    const lines = files[file]!.split("\n").slice(0, line + 1);
    const at = { line, nesting: indentedNesting(lines, rubyTypeLine) };
    const found = await findDeclarations(ruby, host.parse(file), [reference], host, env, {}, at);
    return { found: found.map((f) => `${f.path}:${f.declaration.name}`), reads: host.reads };
  }

  it.each([
    {
      name: "at the top level: the file declaring Pry::CommandSet, not the first required file's Pry",
      file: "/w/lib/pry.rb",
      line: 5,
      reference: { name: "Pry", member: "CommandSet", chain: ["Pry", "CommandSet"], distance: 0 },
      want: ["/w/lib/pry/command_set.rb:CommandSet"],
    },
    {
      name: "inside `class Pry; class Command::Edit`: Helpers::Table is Pry::Helpers::Table",
      file: "/w/lib/pry/commands/edit.rb",
      line: 3,
      reference: { name: "Helpers", member: "Table", chain: ["Helpers", "Table"], distance: 0 },
      want: ["/w/lib/pry/helpers/table.rb:Table"],
    },
    {
      name: "a constant of a member chain: the deepest constant, then the rest as its members",
      file: "/w/lib/pry.rb",
      line: 5,
      reference: {
        name: "Pry",
        member: "CommandSet",
        chain: ["Pry", "CommandSet", "add_command"],
        distance: 0,
      },
      want: ["/w/lib/pry/command_set.rb:CommandSet"],
    },
  ])("$name", async ({ file, line, reference, want }) => {
    const { found } = await resolve(file, line, reference);
    expect(found).toEqual(want);
  });

  it("reads the declaring file first, not the files merely required", async () => {
    const { reads } = await resolve("/w/lib/pry.rb", 5, {
      name: "Pry",
      member: "CommandSet",
      chain: ["Pry", "CommandSet"],
      distance: 0,
    });
    expect(reads).not.toContain("/w/lib/pry/version.rb");
  });

  it("a constant of the enclosing class's base, in the file that declares that path", async () => {
    const { found } = await resolve("/w/lib/pry/commands/edit.rb", 3, {
      name: "Options",
      member: "Flag",
      chain: ["Options", "Flag"],
      distance: 0,
    });
    expect(found).toEqual(["/w/lib/pry/class_command/options/flag.rb:Flag"]);
  });
});
