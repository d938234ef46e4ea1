import {
  type Disposable,
  ErrorCodes,
  InitializeRequest,
  type ProtocolConnection,
  ResponseError,
} from "vscode-languageserver/node";

/**
 * Refuses an `initialize` after the first ("may only be sent once", says LSP) before vscode-languageserver sees
 * it: it would hand the new capabilities to its remotes and to the server, which would negotiate the position
 * encoding again and replace the client's capabilities in the middle of a session. A first `initialize` that
 * failed (its params are not an object) may be sent again.
 */
export function initializeOnce(connection: ProtocolConnection): ProtocolConnection {
  const onRequest = connection.onRequest.bind(connection) as (...args: unknown[]) => Disposable;
  connection.onRequest = ((type: unknown, handler: unknown, ...rest: unknown[]) => {
    const method = typeof type === "string" ? type : (type as { method?: unknown } | undefined)?.method;
    if (method !== InitializeRequest.method || typeof handler !== "function") {
      return onRequest(type, handler, ...rest);
    }
    let received = false;
    return onRequest(
      type,
      (params: unknown, ...args: unknown[]) => {
        if (received) return new ResponseError(ErrorCodes.InvalidRequest, "initialize was already received");
        if (typeof params !== "object" || params === null) {
          return new ResponseError(ErrorCodes.InvalidParams, "initialize: expected params to be an object");
        }
        received = true;
        return handler(params, ...args);
      },
      ...rest,
    );
  }) as ProtocolConnection["onRequest"];
  return connection;
}
