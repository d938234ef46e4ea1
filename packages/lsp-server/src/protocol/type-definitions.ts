import { CancellationTokenSource, type Position } from "vscode-languageserver";
import type { TypeDefinitionAsk, TypeLocation } from "../context/typing/editor-types.js";
import { type PositionEncoding, toClientCharacter } from "../documents/position-encoding.js";

/**
 * The request from the server to its client: where are the types of the values at these positions declared?
 * Params `{ textDocument: { uri }, positions: Position[] }` (in the negotiated position encoding); result
 * `(Location | LocationLink | null)[]`, one per position, as the editor's own language servers answer
 * `textDocument/typeDefinition` (or, failing that, `textDocument/definition`).
 */
export const TYPE_DEFINITIONS_REQUEST = "infill/typeDefinitions";

/** Whether the client said at `initialize` that it answers it: `capabilities.experimental.infill.typeDefinitions`. */
export function answersTypeDefinitions(capabilities: unknown): boolean {
  const infill = (capabilities as { experimental?: { infill?: { typeDefinitions?: unknown } } } | undefined)
    ?.experimental?.infill;
  return infill?.typeDefinitions === true;
}

/** How the request goes out: the part of vscode-languageserver's `Connection` it uses. */
export type SendRequest = (
  method: string,
  params: unknown,
  token: CancellationTokenSource["token"],
) => Promise<unknown>;

/**
 * The question as the context asks it ({@link TypeDefinitionAsk}), sent through `send`: positions turned from
 * UTF-16 into the client's encoding against the document's lines; an abort cancels the request
 * (`$/cancelRequest`). Rejects when the client answers an error or something that is not one answer per position.
 */
export function typeDefinitionAsk(send: SendRequest, encoding: () => PositionEncoding): TypeDefinitionAsk {
  return async (doc, positions, signal) => {
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const toClient = (p: Position): Position => ({
        line: p.line,
        character: toClientCharacter(doc.buffer.lineAt(p.line), p.character, encoding()),
      });
      const result = await send(
        TYPE_DEFINITIONS_REQUEST,
        { textDocument: { uri: doc.uri }, positions: positions.map(toClient) },
        cancel.token,
      );
      return typeLocations(result, positions.length);
    } finally {
      signal.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  };
}

/**
 * The answer read leniently: per position, a `Location`, a `LocationLink` (its `targetSelectionRange`, the name,
 * else its `targetRange`) or the first of a list of them; anything else there is null. Only the file and the line
 * are kept (a line is the same in every position encoding). Throws when the answer is not a list of that length.
 */
export function typeLocations(result: unknown, count: number): Array<TypeLocation | null> {
  if (!Array.isArray(result) || result.length !== count)
    throw new Error(`expected a list of ${count} answers, got ${describe(result)}`);
  return result.map((answer: unknown) => location(Array.isArray(answer) ? answer[0] : answer));
}

function location(answer: unknown): TypeLocation | null {
  if (typeof answer !== "object" || answer === null) return null;
  const { uri, range, targetUri, targetRange, targetSelectionRange } = answer as Record<string, unknown>;
  const file = typeof targetUri === "string" ? targetUri : uri;
  const line = startLine(targetUri === undefined ? range : (targetSelectionRange ?? targetRange));
  return typeof file === "string" && line !== undefined ? { uri: file, line } : null;
}

function startLine(range: unknown): number | undefined {
  const line = (range as { start?: { line?: unknown } } | undefined)?.start?.line;
  return typeof line === "number" && Number.isInteger(line) && line >= 0 ? line : undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return value === null ? "null" : typeof value;
}
