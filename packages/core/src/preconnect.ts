import type { Socket } from "node:net";
import { buildConnector } from "undici";

/**
 * undici's connector, able to open a connection before the request that will use it: `preconnect(origin)` does the
 * DNS lookup, the TCP connect and the TLS handshake now and parks the socket; the pool's next new connection to that
 * origin takes it (or waits for it, when it is still being opened) instead of starting from scratch. No request is
 * sent, so nothing is billed or logged by the server.
 *
 * It also knows which origins the pool still holds a connection to: a socket is counted from the moment the pool
 * takes it until it closes, whichever side closes it (undici's keep-alive timer, or the server's). So `preconnect`
 * opens a connection exactly when the pool has none: after start-up, and after an idle period longer than the
 * keep-alive, without guessing the server's keep-alive timeout.
 */
export class WarmConnector {
  readonly #connect: buildConnector.connector;
  /** Connections opened ahead and not taken by the pool yet (undefined once opening failed), by origin. */
  readonly #parked = new Map<string, Promise<Socket | undefined>>();
  /** Connections the pool took that are still open, by origin. */
  readonly #open = new Map<string, number>();
  /** Origins as parsed: preconnect is called as often as a request is likely, which may be every keystroke. */
  readonly #origins = new Map<string, ParsedOrigin>();

  /** @param options undici's connector options (TLS options, `timeout`, `maxCachedSessions`…). Default none. */
  constructor(options: buildConnector.BuildOptions = {}) {
    this.#connect = buildConnector(options);
  }

  /** The connector to give undici (the `connect` option of an Agent, Pool or Client). */
  readonly connect: buildConnector.connector = (options, callback) => {
    const key = originKey(options.protocol, options.hostname, options.port);
    const parked = options.httpSocket === undefined ? this.#parked.get(key) : undefined;
    if (parked === undefined) {
      this.#fresh(key, options, callback);
      return;
    }
    this.#parked.delete(key);
    void parked.then((socket) => {
      if (socket !== undefined && !socket.destroyed) this.#handOver(key, socket, callback);
      else this.#fresh(key, options, callback);
    });
  };

  /**
   * Open a connection to `origin` (`https://api.deepseek.com`) now, unless the pool holds one or one is being
   * opened. Resolves true once a connection was opened, false when none was needed or opening it failed (the
   * request that follows then opens its own and reports what goes wrong). Never rejects.
   */
  preconnect(origin: string): Promise<boolean> {
    const { url, hostname, key } = this.#parse(origin);
    if (this.#holds(key)) return Promise.resolve(false);
    const opening = new Promise<Socket | undefined>((resolve) => {
      this.#connect({ protocol: url.protocol, hostname, host: url.host, port: url.port }, (error, socket) => {
        if (error !== null || socket === null) {
          resolve(undefined);
          return;
        }
        // A parked connection never keeps the process alive; the pool refs it when it takes it.
        socket.unref();
        // Closed before the pool took it (the server's idle timeout): the next preconnect opens another.
        socket.once("close", () => {
          if (this.#parked.get(key) === opening) this.#parked.delete(key);
        });
        resolve(socket);
      });
    });
    this.#parked.set(key, opening);
    return opening.then((socket) => {
      if (socket === undefined && this.#parked.get(key) === opening) this.#parked.delete(key);
      return socket !== undefined;
    });
  }

  /** Whether the pool holds a connection to `origin`, or one is opened ahead for it. */
  holds(origin: string): boolean {
    return this.#holds(this.#parse(origin).key);
  }

  #parse(origin: string): ParsedOrigin {
    let parsed = this.#origins.get(origin);
    if (parsed === undefined) {
      parsed = parseOrigin(origin);
      this.#origins.set(origin, parsed);
    }
    return parsed;
  }

  /** Close the connections opened ahead that no request has used. */
  close(): void {
    const parked = [...this.#parked.values()];
    this.#parked.clear();
    for (const socket of parked) void socket.then((s) => s?.destroy());
  }

  #holds(key: string): boolean {
    return (this.#open.get(key) ?? 0) > 0 || this.#parked.has(key);
  }

  #fresh(key: string, options: buildConnector.Options, callback: buildConnector.Callback): void {
    this.#connect(options, (error, socket) => {
      if (error !== null || socket === null) callback(error ?? new Error("connect failed"), null);
      else this.#handOver(key, socket, callback);
    });
  }

  #handOver(key: string, socket: Socket, callback: buildConnector.Callback): void {
    this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
    socket.once("close", () => {
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    });
    socket.ref();
    callback(null, socket);
  }
}

interface ParsedOrigin {
  url: URL;
  /** Without the brackets of an IPv6 literal, as undici connects to it. */
  hostname: string;
  key: string;
}

function parseOrigin(origin: string): ParsedOrigin {
  const url = new URL(origin);
  // undici connects to an IPv6 literal without its brackets.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { url, hostname, key: originKey(url.protocol, hostname, url.port) };
}

/** What identifies a connection's destination: protocol, host and port, the protocol's default port filled in. */
function originKey(protocol: string, hostname: string, port: string): string {
  return `${protocol}//${hostname}:${port || (protocol === "https:" ? "443" : "80")}`;
}
