import { Agent, type Dispatcher, EnvHttpProxyAgent } from "undici";
import { WarmConnector } from "./preconnect.js";

/** Agent options of the shared pool. */
const SHARED_POOL_OPTIONS = {
  /** Sockets per origin. An editor needs a few; a batch tool at concurrency 64 should not queue. */
  connections: 128,
  /** One request per socket at a time: pipelining POSTs gains nothing and a slow completion would block others. */
  pipelining: 1,
  /** Keep idle sockets this long (ms) unless the server's Keep-Alive header says less; saves TLS handshakes. */
  keepAliveTimeout: 30_000,
  /** Upper bound (ms) on a server-suggested keep-alive. */
  keepAliveMaxTimeout: 600_000,
  // DeepSeek may hold a request for minutes (blank keep-alive lines) before inference starts; the client's own
  // `timeoutMs` bounds the whole call instead of undici's per-phase timers.
  headersTimeout: 0,
  bodyTimeout: 0,
} as const;

let shared: Dispatcher | undefined;
/** The shared pool's connector, when it connects directly (no proxy). */
let warm: WarmConnector | undefined;

/**
 * The module-wide keep-alive pool every FimClient uses unless given a `dispatcher`. Created on first use, so
 * importing the package has no side effects, and so proxy variables set before the first request count.
 *
 * Honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and lower-case forms) through undici's EnvHttpProxyAgent. When no
 * proxy variable is set, EnvHttpProxyAgent would route every request to a plain Agent anyway (it reads the proxy
 * URLs once, at construction), so a plain Agent is used directly and skips a URL parse per request.
 */
export function sharedDispatcher(): Dispatcher {
  if (shared === undefined) {
    const env = process.env;
    const proxied = Boolean(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY);
    if (proxied) shared = new EnvHttpProxyAgent(SHARED_POOL_OPTIONS);
    else {
      warm = new WarmConnector();
      shared = new Agent({ ...SHARED_POOL_OPTIONS, connect: warm.connect });
    }
  }
  return shared;
}

/**
 * Open a connection from the shared pool to `origin` ahead of the first request (see WarmConnector). Resolves false
 * without doing anything when the pool holds a connection to it already, or goes through a proxy. Never rejects.
 */
export function preconnectShared(origin: string): Promise<boolean> {
  sharedDispatcher();
  return warm?.preconnect(origin) ?? Promise.resolve(false);
}
