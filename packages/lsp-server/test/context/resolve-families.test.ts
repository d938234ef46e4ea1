import { describe, expect, it } from "vitest";
import { findDeclarations } from "../../src/context/declarations/find-declarations.js";
import { cFamilyCandidates } from "../../src/context/resolve/c-family.js";
import { csharpImplicit, namespaceRoot } from "../../src/context/resolve/csharp.js";
import { jvmCandidates, jvmEnvironment, jvmImplicit, jvmPackageFile } from "../../src/context/resolve/jvm.js";
import { ocamlCandidates, ocamlImplicit } from "../../src/context/resolve/ocaml.js";
import { phpCandidates, phpImplicit } from "../../src/context/resolve/php.js";
import { rubyCandidates, rubyImplicit } from "../../src/context/resolve/ruby.js";
import type { LanguageSupport, Reference, ResolveEnv } from "../../src/context/types.js";
import { decl, type FixtureFile, FixtureHost, glob, named, stubSupport } from "./fixture-modules.js";

const ref = (name: string, member?: string, distance = 0): Reference =>
  member === undefined ? { name, distance } : { name, member, distance };

/** `path:name` of what resolution finds from `from`. */
async function found(
  support: LanguageSupport,
  files: Record<string, FixtureFile>,
  from: string,
  refs: Reference[],
  env: ResolveEnv,
): Promise<string[]> {
  const host = new FixtureHost(files);
  const results = await findDeclarations(support, host.parsed(from), refs, host, env);
  return results.map((r) => `${r.path}:${r.declaration.name}`);
}

describe("C and C++ includes", () => {
  const c = stubSupport("c", [".c", ".h"], { candidates: cFamilyCandidates });
  // Specifiers as the grammar gives them: `"util.h"` with its quotes, `<stdio.h>` with its brackets.
  const files: Record<string, FixtureFile> = {
    "/w/src/main.c": { imports: [glob('"util.h"', 0), glob("<proj/api.h>", 1), glob("<stdio.h>", 2)] },
    "/w/src/util.h": { imports: [glob('"types.h"')], declarations: [decl("util_init")] },
    "/w/src/types.h": { imports: [glob('"base/defs.h"')], declarations: [decl("Point", "struct")] },
    "/w/src/base/defs.h": { declarations: [decl("MAX", "function")] },
    "/w/include/proj/api.h": { declarations: [decl("api_call")] },
    "/w/third/lib/ext.h": { declarations: [decl("ext_fn")] },
  };

  it.each([
    { name: "a header beside the file", refs: [ref("util_init")], want: ["/w/src/util.h:util_init"] },
    {
      name: "a header the header includes, transitively (two hops)",
      refs: [ref("Point"), ref("MAX")],
      want: ["/w/src/types.h:Point", "/w/src/base/defs.h:MAX"],
    },
    {
      name: "an angled include from the conventional include/ folder (-I$(top_srcdir)/include, no database)",
      refs: [ref("api_call")],
      want: ["/w/include/proj/api.h:api_call"],
    },
    { name: "a system header is not in the workspace", refs: [ref("printf")], want: [] },
  ])("$name", async ({ refs, want }) => {
    expect(await found(c, files, "/w/src/main.c", refs, { root: "/w" })).toEqual(want);
  });

  it("reads the file's own includes before what they include (the file budget is not spent on the first's tree)", async () => {
    const c = stubSupport("c", [".c", ".h"], { candidates: cFamilyCandidates });
    const tree: Record<string, FixtureFile> = {
      "/w/src/ssl.c": { imports: [glob("big.h"), glob("debug.h")] },
      "/w/src/big.h": { imports: [glob("b1.h"), glob("b2.h"), glob("b3.h")] },
      "/w/src/b1.h": { declarations: [decl("b1")] },
      "/w/src/b2.h": { declarations: [decl("b2")] },
      "/w/src/b3.h": { declarations: [decl("DEBUG_MSG", "function")] },
      "/w/src/debug.h": { declarations: [decl("DEBUG_MSG", "function")] },
    };
    const host = new FixtureHost(tree);
    const results = await findDeclarations(
      c,
      host.parsed("/w/src/ssl.c"),
      [ref("DEBUG_MSG")],
      host,
      { root: "/w" },
      {
        maxFiles: 3,
      },
    );
    expect(results.map((r) => r.path)).toEqual(["/w/src/debug.h"]);
  });

  it("finds a header in an include directory of compile_commands.json, and not without it", async () => {
    const tree = { ...files, "/w/src/main.c": { imports: [glob('"lib/ext.h"')] } };
    expect(await found(c, tree, "/w/src/main.c", [ref("ext_fn")], { root: "/w" })).toEqual([]);
    expect(
      await found(c, tree, "/w/src/main.c", [ref("ext_fn")], { root: "/w", includeDirs: ["/w/third"] }),
    ).toEqual(["/w/third/lib/ext.h:ext_fn"]);
  });
});

describe("Java, Kotlin and Scala", () => {
  const java = stubSupport("java", [".java"], {
    candidates: jvmCandidates,
    implicit: jvmImplicit,
    packageFile: jvmPackageFile,
    environment: jvmEnvironment,
  });
  const root = "/w/app/src/main/java";
  const files: Record<string, FixtureFile> = {
    [`${root}/com/acme/shop/Cart.java`]: {
      package: "com.acme.shop",
      imports: [
        named("com.acme.model.Item", "Item"),
        glob("com.acme.util"),
        named("com.acme.util.Strings", "pad", "Strings.pad"),
      ],
    },
    [`${root}/com/acme/shop/Price.java`]: {
      package: "com.acme.shop",
      declarations: [decl("Price", "class")],
    },
    [`${root}/com/acme/model/Item.java`]: {
      package: "com.acme.model",
      declarations: [decl("Item", "class")],
    },
    [`${root}/com/acme/util/Money.java`]: {
      package: "com.acme.util",
      declarations: [decl("Money", "class")],
    },
    [`${root}/com/acme/util/Strings.java`]: {
      package: "com.acme.util",
      declarations: [decl("Strings", "class", [decl("pad", "method", [], 3)])],
    },
    "/w/app/src/test/java/com/acme/shop/CartTest.java": { package: "com.acme.shop" },
  };
  const maven = { root: "/w", sourceRoots: ["/w/app/src/main/java", "/w/app/src/test/java"] };

  it.each([
    {
      name: "a class of the same package, no import",
      refs: [ref("Price")],
      want: [`${root}/com/acme/shop/Price.java:Price`],
    },
    { name: "an imported class", refs: [ref("Item")], want: [`${root}/com/acme/model/Item.java:Item`] },
    {
      name: "a wildcard import's class",
      refs: [ref("Money")],
      want: [`${root}/com/acme/util/Money.java:Money`],
    },
    {
      name: "a static import's member",
      refs: [ref("pad")],
      want: [`${root}/com/acme/util/Strings.java:pad`],
    },
    { name: "a name declared nowhere", refs: [ref("List")], want: [] },
  ])("$name (Maven layout)", async ({ refs, want }) => {
    expect(await found(java, files, `${root}/com/acme/shop/Cart.java`, refs, maven)).toEqual(want);
  });

  it("infers the source root from the package line when no build file names one", async () => {
    const from = `${root}/com/acme/shop/Cart.java`;
    expect(await found(java, files, from, [ref("Item"), ref("Money")], { root: "/w" })).toEqual([
      `${root}/com/acme/model/Item.java:Item`,
      `${root}/com/acme/util/Money.java:Money`,
    ]);
  });

  it("sees main's classes of the same package from a test", async () => {
    expect(
      await found(java, files, "/w/app/src/test/java/com/acme/shop/CartTest.java", [ref("Price")], maven),
    ).toEqual([`${root}/com/acme/shop/Price.java:Price`]);
  });
});

describe("PHP through composer.json PSR-4", () => {
  const php = stubSupport("php", [".php"], { candidates: phpCandidates, implicit: phpImplicit });
  const files: Record<string, FixtureFile> = {
    "/w/src/Http/Controller.php": {
      package: "App\\Http",
      imports: [named("App\\Models\\User", "Account", "User"), named("Lib\\Log\\Logger", "Logger")],
    },
    "/w/src/Http/Request.php": { package: "App\\Http", declarations: [decl("Request", "class")] },
    "/w/src/Models/User.php": { package: "App\\Models", declarations: [decl("User", "class")] },
    "/w/lib/log/src/Logger.php": { package: "Lib\\Log", declarations: [decl("Logger", "class")] },
  };
  const env = {
    root: "/w",
    psr4: [
      { prefix: "Lib\\Log\\", dirs: ["/w/lib/log/src"] },
      { prefix: "App\\", dirs: ["/w/src"] },
    ],
  };
  it.each([
    { name: "a renamed use", refs: [ref("Account")], want: ["/w/src/Models/User.php:User"] },
    { name: "the longest prefix wins", refs: [ref("Logger")], want: ["/w/lib/log/src/Logger.php:Logger"] },
    {
      name: "a class of the same namespace",
      refs: [ref("Request")],
      want: ["/w/src/Http/Request.php:Request"],
    },
  ])("$name", async ({ refs, want }) => {
    expect(await found(php, files, "/w/src/Http/Controller.php", refs, env)).toEqual(want);
  });
});

describe("Ruby require, require_relative and autoloaded constants", () => {
  const ruby = stubSupport("ruby", [".rb"], { candidates: rubyCandidates, implicit: rubyImplicit });
  const files: Record<string, FixtureFile> = {
    "/w/lib/shop/cart.rb": { imports: [glob("./item"), glob("shop/pricing")] },
    "/w/lib/shop/item.rb": { declarations: [decl("Item", "class")] },
    "/w/lib/shop/pricing.rb": { declarations: [decl("Pricing", "module")] },
    "/w/app/models/user_profile.rb": { declarations: [decl("UserProfile", "class")] },
  };
  it.each([
    { name: "require_relative", refs: [ref("Item")], want: ["/w/lib/shop/item.rb:Item"] },
    {
      name: "require through the load path",
      refs: [ref("Pricing")],
      want: ["/w/lib/shop/pricing.rb:Pricing"],
    },
    {
      name: "a Rails constant autoloaded from app/models",
      refs: [ref("UserProfile")],
      want: ["/w/app/models/user_profile.rb:UserProfile"],
    },
  ])("$name", async ({ refs, want }) => {
    expect(
      await found(ruby, files, "/w/lib/shop/cart.rb", refs, { root: "/w", rubyLoadPath: ["/w/lib"] }),
    ).toEqual(want);
  });
});

describe("C# types by the file and folder conventions of .NET projects", () => {
  it.each([
    {
      name: "the namespace's root maps to the folder its segments end in",
      ns: "dnlib.DotNet",
      dir: "/w/src/DotNet",
      want: { namespace: "dnlib", dir: "/w/src" },
    },
    {
      name: "no folder named after it: the file's folder",
      ns: "Newtonsoft.Json",
      dir: "/w/Src",
      want: { namespace: "Newtonsoft.Json", dir: "/w/Src" },
    },
    { name: "deeper", ns: "Shop.Api.Orders", dir: "/w/Api/Orders", want: { namespace: "Shop", dir: "/w" } },
  ])("$name", ({ ns, dir, want }) => {
    expect(namespaceRoot(ns, dir)).toEqual(want);
  });

  it("looks for `Name.cs` beside the file, then in the folders of the enclosing and used namespaces", () => {
    const from = {
      path: "/w/src/DotNet/Emit/Reader.cs",
      imports: [glob("dnlib.Threading", 0), glob("System.Text", 1), named("dnlib.IO", "IO", "*", 2)],
      outline: { declarations: [], reexports: [], package: "dnlib.DotNet.Emit" },
    };
    expect(csharpImplicit("ListCreator", from, { root: "/w" }).map((c) => c.path)).toEqual([
      "/w/src/DotNet/Emit/ListCreator.cs",
      "/w/src/DotNet/ListCreator.cs",
      "/w/src/ListCreator.cs",
      "/w/src/Threading/ListCreator.cs",
    ]);
    expect(csharpImplicit("value", from, { root: "/w" })).toEqual([]);
  });
});

describe("OCaml modules of the same library", () => {
  it("reaches `Foo.bar` through foo.mli, without any open", async () => {
    const ocaml = stubSupport("ocaml", [".ml", ".mli"], {
      candidates: ocamlCandidates,
      implicit: ocamlImplicit,
    });
    const files: Record<string, FixtureFile> = {
      "/w/lib/main.ml": {},
      "/w/lib/foo.mli": { declarations: [decl("bar"), decl("baz")] },
    };
    expect(await found(ocaml, files, "/w/lib/main.ml", [ref("Foo", "bar")], { root: "/w" })).toEqual([
      "/w/lib/foo.mli:bar",
    ]);
  });
});
