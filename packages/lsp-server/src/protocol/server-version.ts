import pkg from "../../package.json" with { type: "json" };

/** The server's version (the bundler inlines package.json). */
export const SERVER_VERSION: string = pkg.version;
