// The server's entry: V8's flags first, then the command line and the server, loaded only once they are set (a
// static import would be evaluated before this module's first statement, with the rest of the bundle).
import { setV8Flags } from "./v8-flags.js";

setV8Flags();
await import("./cli.js");
