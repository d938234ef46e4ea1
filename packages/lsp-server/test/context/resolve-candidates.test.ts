import { describe, expect, it } from "vitest";
import { rust } from "../../src/context/lang/index.js";
import { bashCandidates } from "../../src/context/resolve/bash.js";
import {
  cFamilyCandidates,
  compileCommandsIncludeDirs,
  compileFlagsIncludeDirs,
} from "../../src/context/resolve/c-family.js";
import { parseCargoManifest } from "../../src/context/resolve/cargo.js";
import { csharpCandidates } from "../../src/context/resolve/csharp.js";
import { elixirCandidates } from "../../src/context/resolve/elixir.js";
import {
  gradleSourceRoots,
  jvmCandidates,
  jvmEnvironment,
  mavenSourceRoots,
  packageRoot,
  sbtSourceRoots,
} from "../../src/context/resolve/jvm.js";
import { duneLibraryNames, ocamlCandidates } from "../../src/context/resolve/ocaml.js";
import { composerPsr4, phpCandidates } from "../../src/context/resolve/php.js";
import { gemspecRequirePaths, rubyCandidates, underscore } from "../../src/context/resolve/ruby.js";
import { shellWords } from "../../src/context/resolve/shell-words.js";
import { swiftCandidates, swiftPackageTargets } from "../../src/context/resolve/swift.js";
import { zigCandidates } from "../../src/context/resolve/zig.js";
import type { ResolveEnv } from "../../src/context/types.js";

const env: ResolveEnv = { root: "/w" };

describe("candidates per family", () => {
  it.each([
    {
      name: "C quoted: beside the file, include dirs, root, include/, src/",
      got: () => cFamilyCandidates("a/b.h", "/w/src/x.c", { root: "/w", includeDirs: ["/w/third"] }),
      want: ["/w/src/a/b.h", "/w/third/a/b.h", "/w/a/b.h", "/w/include/a/b.h"],
    },
    {
      name: "C angled: not beside the file",
      got: () => cFamilyCandidates("<a/b.h>", "/w/src/x.c", env),
      want: ["/w/a/b.h", "/w/include/a/b.h", "/w/src/a/b.h"],
    },
    { name: "C empty", got: () => cFamilyCandidates("<>", "/w/x.c", env), want: [] },
    {
      name: "Java class under each root, then the nested-class file, then package folders",
      got: () => jvmCandidates("a.B", "/w/r/a/X.java", { root: "/w", sourceRoots: ["/w/r"] }),
      want: [
        "/w/r/a/B.java",
        "/w/r/a/B.kt",
        "/w/r/a/B.scala",
        "/w/r/a.java",
        "/w/r/a.kt",
        "/w/r/a.scala",
        "/w/r/a/B/",
        "/w/r/a/",
      ],
    },
    {
      name: "Kotlin prefers .kt",
      got: () => jvmCandidates("p.Q", "/w/r/p/X.kt", { root: "/w", sourceRoots: ["/w/r"] }).slice(0, 2),
      want: ["/w/r/p/Q.kt", "/w/r/p/Q.java"],
    },
    { name: "Java without a source root", got: () => jvmCandidates("a.B", "/w/X.java", env), want: [] },
    {
      name: "Java malformed",
      got: () => jvmCandidates("a..B", "/w/X.java", { root: "/w", sourceRoots: ["/w"] }),
      want: [],
    },
    { name: "C# namespaces are not files", got: () => csharpCandidates("A.B", "/w/x.cs", env), want: [] },
    {
      name: "PHP PSR-4, then src/ and root, then the namespace folder",
      got: () =>
        phpCandidates("App\\Models\\User", "/w/src/x.php", {
          root: "/w",
          psr4: [{ prefix: "App\\", dirs: ["/w/src"] }],
        }),
      want: [
        "/w/src/Models/User.php",
        "/w/src/App/Models/User.php",
        "/w/App/Models/User.php",
        "/w/src/Models/",
      ],
    },
    {
      name: "PHP require of a path",
      got: () => phpCandidates("./inc/a.php", "/w/src/x.php", env),
      want: ["/w/src/inc/a.php"],
    },
    { name: "PHP malformed", got: () => phpCandidates("A\\\\B", "/w/x.php", env), want: [] },
    {
      name: "Ruby require_relative",
      got: () => rubyCandidates("./b/c", "/w/lib/a.rb", env),
      want: ["/w/lib/b/c.rb", "/w/lib/b/c"],
    },
    {
      name: "Ruby require: load path then root",
      got: () => rubyCandidates("x/y", "/w/lib/a.rb", env),
      want: ["/w/lib/x/y.rb", "/w/lib/x/y", "/w/x/y.rb", "/w/x/y"],
    },
    {
      name: "Swift target folder",
      got: () =>
        swiftCandidates("Core", "/w/Sources/App/a.swift", {
          root: "/w",
          swiftTargets: new Map([["Core", "/w/Sources/Core"]]),
        }),
      want: ["/w/Sources/Core/"],
    },
    { name: "Swift unknown module", got: () => swiftCandidates("Foundation", "/w/a.swift", env), want: [] },
    {
      name: "Elixir module under lib/",
      got: () =>
        elixirCandidates("MyApp.Accounts.User", "/w/lib/x.ex", { root: "/w", mixDir: "/w" }).slice(0, 2),
      want: ["/w/lib/my_app/accounts/user.ex", "/w/lib/my_app/accounts/user.exs"],
    },
    { name: "Elixir malformed", got: () => elixirCandidates("my.app", "/w/x.ex", env), want: [] },
    {
      name: "OCaml module beside the file, then its library",
      got: () =>
        ocamlCandidates("Foo", "/w/lib/a.ml", { root: "/w", duneLibraries: new Map([["foo", "/w/foo"]]) }),
      want: ["/w/lib/foo.mli", "/w/lib/foo.ml", "/w/lib/Foo.mli", "/w/lib/Foo.ml", "/w/foo/"],
    },
    {
      name: "OCaml module of a library",
      got: () =>
        ocamlCandidates("Util.Strings", "/w/bin/a.ml", {
          root: "/w",
          duneLibraries: new Map([["util", "/w/util"]]),
        }).slice(0, 2),
      want: ["/w/util/strings.mli", "/w/util/strings.ml"],
    },
    {
      name: "Zig relative file",
      got: () => zigCandidates("../x.zig", "/w/src/a/b.zig", env),
      want: ["/w/src/x.zig"],
    },
    { name: "Zig std", got: () => zigCandidates("std", "/w/a.zig", env), want: [] },
    {
      name: "Bash relative",
      got: () => bashCandidates("./lib.sh", "/w/bin/a.sh", env),
      want: ["/w/bin/lib.sh"],
    },
    {
      name: "Bash bare: beside, then root",
      got: () => bashCandidates("lib.sh", "/w/bin/a.sh", env),
      want: ["/w/bin/lib.sh", "/w/lib.sh"],
    },
    { name: "Bash unexpanded variable", got: () => bashCandidates("$X/lib.sh", "/w/a.sh", env), want: [] },
    {
      name: "Rust: another crate of the workspace by name",
      got: () =>
        rust.candidates("grep_matcher::interpolate", "/w/crates/cli/src/lib.rs", {
          root: "/w",
          crates: new Map([
            ["grep_matcher", { dir: "/w/crates/matcher", root: "/w/crates/matcher/src/lib.rs" }],
          ]),
        }),
      want: [
        "/w/crates/cli/src/grep_matcher/interpolate.rs",
        "/w/crates/cli/src/grep_matcher/interpolate/mod.rs",
        "/w/crates/matcher/src/interpolate.rs",
        "/w/crates/matcher/src/interpolate/mod.rs",
      ],
    },
  ])("$name", ({ got, want }) => {
    expect(got()).toEqual(want);
  });
});

describe("the environment a JVM package line implies", () => {
  it.each([
    { file: "/w/src/main/java/a/b/C.java", pkg: "a.b", want: "/w/src/main/java" },
    { file: "/w/src/C.java", pkg: "a.b", want: undefined },
    { file: "/w/a/b/C.java", pkg: "a..b", want: undefined },
  ])("$file in $pkg", ({ file, pkg, want }) => {
    expect(packageRoot(file, pkg)).toBe(want);
  });
  it("puts the file's own root first, once", () => {
    const from = {
      path: "/w/m/a/B.java",
      imports: [],
      outline: { declarations: [], reexports: [], package: "a" },
    };
    expect(jvmEnvironment(from, { root: "/w", sourceRoots: ["/w/x"] }).sourceRoots).toEqual(["/w/m", "/w/x"]);
    expect(jvmEnvironment(from, { root: "/w", sourceRoots: ["/w/m"] }).sourceRoots).toEqual(["/w/m"]);
  });
});

describe("project files", () => {
  it("reads include directories from compile_commands.json (arguments, command, relative to directory)", () => {
    const db = JSON.stringify([
      {
        directory: "/w/build",
        arguments: ["cc", "-I../include", "-iquote", "/w/src", "-isystem/usr/include", "-c", "a.c"],
      },
      { directory: "sub", command: 'cc -I "../gen dir" -DX=1 --include-directory=/w/third -c b.c' },
      { directory: 3, command: 7 },
      "junk",
    ]);
    expect(compileCommandsIncludeDirs(db, "/w")).toEqual([
      "/w/src",
      "/w/include",
      "/w/gen dir",
      "/w/third",
      "/usr/include",
    ]);
  });
  it.each(["", "{", "null", "{}", "[1,2]"])("a malformed compile_commands.json %j gives nothing", (text) => {
    expect(compileCommandsIncludeDirs(text, "/w")).toEqual([]);
  });
  it("reads compile_flags.txt", () => {
    expect(compileFlagsIncludeDirs("-xc++\n-Iinclude\n-I\nthird\n# comment\n-Wall\n", "/w")).toEqual([
      "/w/include",
      "/w/third",
    ]);
  });
  it("splits command lines like a shell", () => {
    expect(shellWords(`cc -I'a b' "-Ic\\"d" e\\ f "unterminated`)).toEqual([
      "cc",
      "-Ia b",
      '-Ic"d',
      "e f",
      "unterminated",
    ]);
  });
  it("reads Maven, Gradle and sbt source roots", () => {
    expect(
      mavenSourceRoots(
        "<project><build><sourceDirectory>$" +
          "{project.basedir}/src/java</sourceDirectory></build></project>",
        "/w",
      ).slice(0, 2),
    ).toEqual(["/w/src/java", "/w/src/main/java"]);
    expect(mavenSourceRoots("<not xml", "/w")[0]).toBe("/w/src/main/java");
    expect(
      gradleSourceRoots(`sourceSets { main { java { srcDirs = ['src', "gen/java"] } } }`, "/w").slice(0, 3),
    ).toEqual(["/w/src", "/w/gen/java", "/w/src/main/java"]);
    expect(gradleSourceRoots("}{", "/w")[0]).toBe("/w/src/main/java");
    expect(sbtSourceRoots(`Compile / scalaSource := baseDirectory.value / "app" / "scala"`, "/w")[0]).toBe(
      "/w/app/scala",
    );
  });
  it("reads composer.json PSR-4, longest prefix first, and survives malformed ones", () => {
    const composer = JSON.stringify({
      autoload: { "psr-4": { "App\\": "src/", "App\\Domain\\": ["domain/", 3], "": "lib/" } },
      "autoload-dev": { "psr-4": { Tests: "tests" } },
    });
    expect(composerPsr4(composer, "/w")).toEqual([
      { prefix: "App\\Domain\\", dirs: ["/w/domain"] },
      { prefix: "Tests\\", dirs: ["/w/tests"] },
      { prefix: "App\\", dirs: ["/w/src"] },
      { prefix: "", dirs: ["/w/lib"] },
    ]);
    for (const bad of ["", "[]", '{"autoload": 3}', '{"autoload": {"psr-4": "x"}}'])
      expect(composerPsr4(bad, "/w")).toEqual([]);
  });
  it("reads a gemspec's require_paths", () => {
    expect(gemspecRequirePaths(`s.require_paths = ["lib", "ext"]`, "/w")).toEqual(["/w/lib", "/w/ext"]);
    expect(gemspecRequirePaths(`spec.require_paths = %w[src]`, "/w")).toEqual(["/w/src"]);
    expect(gemspecRequirePaths(`Gem::Specification.new do |s| end`, "/w")).toEqual(["/w/lib"]);
  });
  it("reads SwiftPM targets with their paths", () => {
    const manifest = `let package = Package(name: "P", targets: [
      .target(name: "Core", dependencies: []),
      .executableTarget(name: "Tool", dependencies: ["Core"], path: "Tools/tool"),
      .testTarget(name: "CoreTests", dependencies: ["Core"]),
    ])`;
    expect([...swiftPackageTargets(manifest, "/w")]).toEqual([
      ["Core", "/w/Sources/Core"],
      ["Tool", "/w/Tools/tool"],
      ["CoreTests", "/w/Tests/CoreTests"],
    ]);
    expect(swiftPackageTargets(".target(", "/w").size).toBe(0);
  });
  it("reads dune libraries", () => {
    expect(duneLibraryNames("(library\n (name util)\n (libraries str))\n(executable (name main))")).toEqual([
      "util",
    ]);
    expect(duneLibraryNames("(library")).toEqual([]);
  });
  it("reads Cargo manifests: the crate, workspace members, path dependencies; malformed TOML gives nothing", () => {
    const manifest = parseCargoManifest(
      `[package]\nname = "grep-cli"\n[lib]\npath = "src/cli.rs"\n[workspace]\nmembers = ["crates/*"]\nexclude = ["x"]\n[dependencies]\ngrep-matcher = { path = "../matcher", version = "1" }\nserde = "1"\n`,
      "/w/cli",
    );
    expect(manifest.crate).toEqual({ name: "grep_cli", root: "/w/cli/src/cli.rs" });
    expect(manifest.roots).toEqual(["/w/cli/src/cli.rs", "/w/cli/src/main.rs"]);
    expect(manifest.members).toEqual(["crates/*"]);
    expect(manifest.exclude).toEqual(["x"]);
    expect([...manifest.pathDependencies]).toEqual([["grep_matcher", "/w/matcher"]]);
    expect(parseCargoManifest("[package\nname=", "/w")).toEqual({
      roots: [],
      members: [],
      exclude: [],
      pathDependencies: new Map(),
    });
  });
  it("names Rails constants as Zeitwerk does", () => {
    expect(["UserProfile", "HTTPClient", "Api", "V2Thing"].map(underscore)).toEqual([
      "user_profile",
      "http_client",
      "api",
      "v2_thing",
    ]);
  });
});
