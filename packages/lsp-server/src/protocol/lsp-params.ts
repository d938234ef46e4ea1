// The shapes of the LSP params the server reads, checked at the edge so that a client's bad message is refused
// with the field it got wrong, instead of a TypeError deep inside (or, worse, a document edited with `undefined`).
// Hand-written rather than zod: it runs on every keystroke, and zod is loaded only after `initialize`.

/** Checks a value; returns what it expected when the value does not fit, at `path`. */
type Check = (value: unknown, path: string) => string | undefined;

const expect = (what: string, path: string) => `${path || "params"}: expected ${what}`;

const string: Check = (value, path) => (typeof value === "string" ? undefined : expect("a string", path));
const number: Check = (value, path) =>
  typeof value === "number" && Number.isFinite(value) ? undefined : expect("a number", path);

function optional(check: Check): Check {
  return (value, path) => (value === undefined ? undefined : check(value, path));
}

function object(fields: Record<string, Check>): Check {
  return (value, path) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return expect("an object", path);
    for (const [key, check] of Object.entries(fields)) {
      const problem = check((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return undefined;
  };
}

function arrayOf(check: Check): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return expect("an array", path);
    for (const [i, item] of value.entries()) {
      const problem = check(item, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

const position = object({ line: number, character: number });
const range = object({ start: position, end: position });

const SHAPES = {
  /** `textDocument/inlineCompletion`, `textDocument/completion`. */
  position: object({ textDocument: object({ uri: string }), position }),
  "textDocument/didOpen": object({
    textDocument: object({ uri: string, languageId: string, version: number, text: string }),
  }),
  "textDocument/didChange": object({
    textDocument: object({ uri: string, version: number }),
    contentChanges: arrayOf(object({ range: optional(range), text: string })),
  }),
  /** `textDocument/copilotInlineEdit`: copilot-lsp sends the document's version with the position. */
  inlineEdit: object({ textDocument: object({ uri: string, version: optional(number) }), position }),
  "textDocument/codeAction": object({
    textDocument: object({ uri: string }),
    range,
    context: optional(object({ triggerKind: optional(number) })),
  }),
  /** `didClose`, `didSave`. */
  document: object({ textDocument: object({ uri: string }) }),
} as const;

/** The kinds of params checked. */
export type ParamsShape = keyof typeof SHAPES;

/**
 * What is wrong with a message's params, naming the field (`textDocument.uri: expected a string`), or undefined
 * when they have the shape the server reads. Fields the server does not read are not checked.
 */
export function paramsProblem(shape: ParamsShape, params: unknown): string | undefined {
  return SHAPES[shape](params, "");
}

/** The workspace fields of `initialize`, as `initialFolders` reads them. */
export interface FolderParams {
  workspaceFolders?: Array<{ uri: string; name: string }> | null;
  rootUri?: string | null;
  rootPath?: string | null;
}

/** The workspace fields of `initialize` params, each left out when it does not have its type. */
export function folderParams(params: object): FolderParams {
  const { workspaceFolders, rootUri, rootPath } = params as Record<string, unknown>;
  const folders = Array.isArray(workspaceFolders)
    ? workspaceFolders.filter(
        (folder): folder is { uri: string; name: string } =>
          typeof folder === "object" &&
          folder !== null &&
          typeof folder.uri === "string" &&
          typeof folder.name === "string",
      )
    : undefined;
  return {
    ...(folders ? { workspaceFolders: folders } : {}),
    ...(typeof rootUri === "string" ? { rootUri } : {}),
    ...(typeof rootPath === "string" ? { rootPath } : {}),
  };
}
