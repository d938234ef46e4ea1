// The ctags oracle's corpora: real projects of each language from Debian bookworm's archive, pinned by pool path and
// SHA-256. A source package's upstream tarball where the archive serves it (its tests too), else a binary package
// that ships the sources (Ruby, Python, Go and Rust libraries do). Two per language: one the tuning corpus (its
// misses were read and the rules fixed against them, issue 17), the other held out (its misses never read: only its
// figures reported), chosen before any miss was read: the one further from the goals at the time, or for Go the one
// that missed the cache goal.
import type { DebianFile } from "./debian-archive.js";
import type { Language } from "./languages.js";

/** A corpus from Debian's archive. */
export interface DebianCorpus {
  readonly language: Language;
  /** The project, as printed. */
  readonly name: string;
  /** Its upstream version. */
  readonly version: string;
  /** The Debian package and version the file belongs to: `mbedtls 2.28.3-1 (source)`. */
  readonly debian: string;
  readonly file: DebianFile;
  /**
   * Folders of the unpacked file that make the workspace, each to its place in it (`.` is the workspace folder):
   * the project as a developer would open it.
   */
  readonly layout: Readonly<Record<string, string>>;
  /** `held out` corpora are never tuned on; `tuning` is what the context was developed against. */
  readonly role: "held out" | "tuning";
  /** What makes it worth measuring, one line. */
  readonly why: string;
}

/** Every Debian corpus, in report order: by language, the ones with imports to follow first. */
export const DEBIAN_CORPORA: readonly DebianCorpus[] = [
  {
    language: "C",
    name: "mbedtls",
    version: "2.28.3",
    debian: "mbedtls 2.28.3-1 (source)",
    file: {
      pool: "pool/main/m/mbedtls/mbedtls_2.28.3.orig.tar.gz",
      sha256: "3b4953aa55a681e084d31892d9904cc5328d6b4958ea57b90ae4b4f94ae69a8d",
    },
    layout: { "Mbed-TLS-mbedtls-8f97ca5": "." },
    role: "tuning",
    why: 'include/mbedtls/*.h reached with -Iinclude (`#include "mbedtls/aes.h"`), library/, programs/, tests/',
  },
  {
    language: "C",
    name: "lua",
    version: "5.4.4",
    debian: "lua5.4 5.4.4-3+deb12u1 (source)",
    file: {
      pool: "pool/main/l/lua5.4/lua5.4_5.4.4.orig.tar.gz",
      sha256: "164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61",
    },
    layout: { "lua-5.4.4": "." },
    role: "held out",
    why: "one flat src/ built by a Makefile, no compile_commands.json; headers included by bare name",
  },
  {
    language: "C++",
    name: "yaml-cpp",
    version: "0.7.0",
    debian: "yaml-cpp 0.7.0+dfsg-8 (source)",
    file: {
      pool: "pool/main/y/yaml-cpp/yaml-cpp_0.7.0+dfsg.orig.tar.xz",
      sha256: "dc63708605404e0b963e0ca3a9619d1c8270eda2839603e6fa0384e5e51e5312",
    },
    layout: { "yaml-cpp-yaml-cpp-0.7.0": "." },
    role: "tuning",
    why: 'public include/yaml-cpp/ (`#include "yaml-cpp/node/node.h"`), private src/*.h, namespaces, CMake',
  },
  {
    language: "C++",
    name: "leveldb",
    version: "1.23",
    debian: "leveldb 1.23-4 (source)",
    file: {
      pool: "pool/main/l/leveldb/leveldb_1.23.orig.tar.gz",
      sha256: "9a37f8a6174f09bd622bc723b55881dc541cd50747cbd08831c2a82d620f6d76",
    },
    layout: { "leveldb-1.23": "." },
    role: "held out",
    why: 'includes from the project root (`#include "db/dbformat.h"`) and include/leveldb/, .cc and .h',
  },
  {
    language: "Java",
    name: "commons-lang3",
    version: "3.12.0",
    debian: "libcommons-lang3-java 3.12.0-2+deb12u1 (source)",
    file: {
      pool: "pool/main/libc/libcommons-lang3-java/libcommons-lang3-java_3.12.0.orig.tar.xz",
      sha256: "f7c22574707611b63bae19ff17f59e24cdd32e2b0e61a50ec9b1b525fbc909d1",
    },
    layout: { "commons-lang-rel-commons-lang-3.12.0": "." },
    role: "tuning",
    why: "Maven layout, two source roots (src/main/java, src/test/java) sharing packages",
  },
  {
    language: "Java",
    name: "jsoup",
    version: "1.15.3",
    debian: "jsoup 1.15.3-1 (source)",
    file: {
      pool: "pool/main/j/jsoup/jsoup_1.15.3.orig.tar.xz",
      sha256: "052511f0be47511f9b2a17d44fc1eccc4b5373e77cc5a3221e34b6af437e1e2e",
    },
    layout: { "jsoup-jsoup-1.15.3": "." },
    role: "held out",
    why: "Maven layout, packages that import each other (nodes, parser, select, helper)",
  },
  {
    language: "C#",
    name: "Newtonsoft.Json",
    version: "6.0.8",
    debian: "newtonsoft-json 6.0.8+dfsg-1.1 (source)",
    file: {
      pool: "pool/main/n/newtonsoft-json/newtonsoft-json_6.0.8+dfsg.orig.tar.gz",
      sha256: "3b7c77da971bbe1c6fdbb5cbb634d106a86aa30c82647abd9b23d2f31be0c630",
    },
    layout: { "newtonsoft-json-6.0.8/Src/Newtonsoft.Json": "." },
    role: "held out",
    why: "the library project (Src/Newtonsoft.Json): nested namespaces, partial classes, files named after types",
  },
  {
    language: "C#",
    name: "dnlib",
    version: "2.1",
    debian: "dnlib 2.1-3 (source)",
    file: {
      pool: "pool/main/d/dnlib/dnlib_2.1.orig.tar.gz",
      sha256: "eb2d35a27a68ca37568659615d93cf2a544527d0ba7428a7e2852b7592362556",
    },
    layout: { "dnlib-2.1_VS2010": "." },
    role: "tuning",
    why: "a .NET metadata reader: src/DotNet (316 files) using src/IO, src/PE, src/Utils",
  },
  {
    language: "Ruby",
    name: "pry",
    version: "0.13.1",
    debian: "pry 0.13.1-3 (binary, lib/)",
    file: {
      pool: "pool/main/p/pry/pry_0.13.1-3_all.deb",
      sha256: "c2a868c96820c6c5dc1e49e1b5b96904b91e3b3004bd5887f8a2c77441e66b6a",
    },
    layout: { "usr/lib/ruby/vendor_ruby": "lib" },
    role: "tuning",
    why: "lib/pry.rb requires every file by load path (`require 'pry/command'`); classes nested in module Pry",
  },
  {
    language: "Ruby",
    name: "rubygems",
    version: "3.3.15",
    debian: "ruby-rubygems 3.3.15-2+deb12u1 (binary, lib/)",
    file: {
      pool: "pool/main/r/rubygems/ruby-rubygems_3.3.15-2+deb12u1_all.deb",
      sha256: "49485e383cea98395b57a795179b837800bf05a3a7dfb1c6ca708187452a8bd6",
    },
    layout: { "usr/lib/ruby/vendor_ruby": "lib" },
    role: "held out",
    why: "files that require_relative each other, a vendored resolver (molinillo)",
  },
  {
    language: "PHP",
    name: "monolog",
    version: "2.9.1",
    debian: "php-monolog 2.9.1-1 (source)",
    file: {
      pool: "pool/main/p/php-monolog/php-monolog_2.9.1.orig.tar.xz",
      sha256: "55d7d62eee001d4e68fe0d53841ede53bd583f4e0e3a172877d9a939f4b3c79e",
    },
    layout: { "php-monolog-2.9.1": "." },
    role: "tuning",
    why: "composer.json with PSR-4 autoload (src/) and autoload-dev (tests/), `use` of handlers and formatters",
  },
  {
    language: "PHP",
    name: "league/commonmark",
    version: "2.3.9",
    debian: "php-league-commonmark 2.3.9-1+deb12u1 (source)",
    file: {
      pool: "pool/main/p/php-league-commonmark/php-league-commonmark_2.3.9.orig.tar.xz",
      sha256: "c47403767a27c7d14f036a0a8e758eab213958d2489160412043174dc453f9d3",
    },
    layout: { "php-league-commonmark-2.3.9": "." },
    role: "held out",
    why: "composer.json with PSR-4, deep namespaces (Extension\\…\\Node, Parser, Renderer), interfaces",
  },
  {
    language: "Python",
    name: "rich",
    version: "13.3.1",
    debian: "python3-rich 13.3.1-1 (binary, the package)",
    file: {
      pool: "pool/main/r/rich/python3-rich_13.3.1-1_all.deb",
      sha256: "4922761342dd42eb989dcc148e7a251401caf0266796f9fb0907be262d4a4083",
    },
    layout: { "usr/lib/python3/dist-packages/rich": "rich" },
    role: "tuning",
    why: "relative imports (`from .console import Console`), imports inside functions and TYPE_CHECKING blocks",
  },
  {
    language: "Python",
    name: "docutils",
    version: "0.19",
    debian: "python3-docutils 0.19+dfsg-6 (binary, the package)",
    file: {
      pool: "pool/main/p/python-docutils/python3-docutils_0.19+dfsg-6_all.deb",
      sha256: "ada9a80195375262c50dc0acf21a00a51166fee3fc96f6ca6d20a1a27868ba2c",
    },
    layout: { "usr/lib/python3/dist-packages/docutils": "docutils" },
    role: "held out",
    why: "absolute imports of modules (`from docutils import nodes`, then `nodes.paragraph(`), deep packages",
  },
  {
    language: "Go",
    name: "prometheus/client_golang",
    version: "1.14.0",
    debian: "golang-github-prometheus-client-golang-dev 1.14.0-3 (binary, the module)",
    file: {
      pool: "pool/main/g/golang-github-prometheus-client-golang/golang-github-prometheus-client-golang-dev_1.14.0-3_all.deb",
      sha256: "b95081bf869abc26d70ba2a1dfd9d0ac6675b6ac95c9ffa6e25971ee862e7016",
    },
    layout: { "usr/share/gocode/src/github.com/prometheus/client_golang": "." },
    role: "held out",
    why: "go.mod; packages importing each other by module path (prometheus, promhttp, internal, testutil)",
  },
  {
    language: "Go",
    name: "goldmark",
    version: "1.5.4",
    debian: "golang-github-yuin-goldmark-dev 1.5.4-1 (binary, the module)",
    file: {
      pool: "pool/main/g/golang-github-yuin-goldmark/golang-github-yuin-goldmark-dev_1.5.4-1_all.deb",
      sha256: "c52d83484318f870494e3170646f7840a1085fd8c7ba77da75a9bb83d196ecf7",
    },
    layout: { "usr/share/gocode/src/github.com/yuin/goldmark": "." },
    role: "tuning",
    why: "go.mod; ast, parser, renderer, text and util packages, an extension/ast package imported as `gast`",
  },
  {
    language: "Rust",
    name: "rayon",
    version: "1.6.1",
    debian: "librust-rayon-dev 1.6.1-1 (binary, the crate)",
    file: {
      pool: "pool/main/r/rust-rayon/librust-rayon-dev_1.6.1-1_amd64.deb",
      sha256: "2f04ea06c755036d57b9e6b297bc3457bc86058f459fc1ee8d4ec51db5d640b2",
    },
    layout: { "usr/share/cargo/registry/rayon-1.6.1": "." },
    role: "held out",
    why: "Cargo.toml; `use crate::iter::plumbing::*`, `super::`, mod.rs trees, tests/ reaching the crate by name",
  },
  {
    language: "Rust",
    name: "clap",
    version: "4.0.32",
    debian: "librust-clap-dev 4.0.32-1 (binary, the crate)",
    file: {
      pool: "pool/main/r/rust-clap/librust-clap-dev_4.0.32-1_amd64.deb",
      sha256: "00922f24c3eb5a899ae4438ebf7be2e82085559ee45055dbc856cdb113de9ebb",
    },
    layout: { "usr/share/cargo/registry/clap-4.0.32": "." },
    role: "tuning",
    why: "Cargo.toml; lib.rs re-exports (`pub use crate::builder::Command`), examples/ using the crate by name",
  },
];
