import type { Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";

/** A listener made by {@link delayedConnections}. */
export interface DelayedListener extends Server {
  /** Ends every connection it accepted, waiting or handed over (the HTTP server does not track them). */
  destroyAll(): void;
}

/**
 * A listener that hands each new connection to `http` only after `delayMs`: what DNS, TCP and TLS set-up cost a
 * client on a real network, paid once per connection (a request on a kept-alive connection does not wait). The
 * client's connection is accepted at once, but nothing it sends is read until the delay has passed, as when a TLS
 * handshake is still going on.
 */
export function delayedConnections(http: HttpServer, delayMs: number): DelayedListener {
  const sockets = new Set<Socket>();
  const listener = createServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    const timer = setTimeout(() => {
      // The hand-over a cluster's sticky-session balancer does: the HTTP server takes the socket as its own.
      http.emit("connection", socket);
      socket.resume();
    }, delayMs);
    socket.once("close", () => {
      clearTimeout(timer);
      sockets.delete(socket);
    });
    // A client that gives up during the delay resets the connection; nothing to tell anyone.
    socket.on("error", () => {});
  });
  return Object.assign(listener, {
    destroyAll() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  });
}
