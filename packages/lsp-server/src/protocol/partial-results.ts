import type { ProgressToken } from "vscode-languageserver";

/**
 * The notification that carries a partial result: `{ token, items }`, `items` shaped like the final answer's
 * (`InlineCompletionItem[]`), for the `textDocument/inlineCompletion` request whose params held `token` as
 * `partialResultToken`.
 */
export const PARTIAL_NOTIFICATION = "$/infill/partial";

/** What the server advertises (`capabilities.experimental`) and a client declares to get partial results. */
export const PARTIAL_CAPABILITY = { infill: { partialResults: true } } as const;

/**
 * The token to send partial results of one inline completion request to, or undefined when that client gets
 * none: it must have said it understands them (client capability `experimental.infill.partialResults: true`)
 * and passed a `partialResultToken` with the request (inline completion has no standard partial results, and
 * the standard's rule that the final answer then be empty would break the clients that ignore them).
 */
export function partialResultToken(capabilities: unknown, params: unknown): ProgressToken | undefined {
  const wanted = (capabilities as { experimental?: { infill?: { partialResults?: unknown } } } | undefined)
    ?.experimental?.infill?.partialResults;
  if (wanted !== true) return undefined;
  const token = (params as { partialResultToken?: unknown } | undefined)?.partialResultToken;
  return typeof token === "string" || (typeof token === "number" && Number.isInteger(token))
    ? token
    : undefined;
}
