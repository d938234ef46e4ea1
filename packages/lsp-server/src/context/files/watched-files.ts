/**
 * Files whose changes on disk matter to repository context (the server asks the client to watch them): sources of
 * the languages whose imports are resolved, and the project files that change how they resolve.
 */
export const WATCHED_FILES = [
  { globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py,pyi,go,rs,lua}" },
  // The families whose resolution is in `resolve/` (their parsers come with them): sources the symbol index holds.
  {
    globPattern:
      "**/*.{c,h,cc,cpp,cxx,c++,hpp,hh,hxx,h++,ipp,tpp,cu,java,kt,kts,scala,sc,cs,rb,rake,gemspec,php,swift,ex,exs,ml,mli,zig,sh,bash}",
  },
  {
    globPattern:
      "**/{tsconfig.json,jsconfig.json,go.mod,Cargo.toml,package.json,pnpm-workspace.yaml,lerna.json,.gitignore}",
  },
  // A group holds names only: Eglot's glob grammar refuses a `*` inside braces, and with it the whole registration.
  {
    globPattern:
      "**/{compile_commands.json,compile_flags.txt,pom.xml,build.gradle,build.gradle.kts,build.sbt,composer.json,Gemfile,Package.swift,mix.exs,dune,dune-project}",
  },
];
