/**
 * Files whose changes on disk matter to repository context (the server asks the client to watch them): sources of
 * the languages whose imports are resolved, and the project files that change how they resolve.
 */
export const WATCHED_FILES = [
  { globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py,pyi,go,rs,lua}" },
  {
    globPattern:
      "**/{tsconfig.json,jsconfig.json,go.mod,Cargo.toml,package.json,pnpm-workspace.yaml,lerna.json,.gitignore}",
  },
];
