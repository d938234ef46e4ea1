import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { PARTIAL_NOTIFICATION } from "../../src/protocol/partial-results.js";
import { sessions } from "../support/session.js";
import { eventually, status } from "../support/status.js";

const start = sessions();
const root = mkdtempSync(join(tmpdir(), "infill-endings-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A new function at the end of the file, the cursor on a line without indentation: the sim copies the body of the
// function before it, and (writeOn, as a model does at the end of a file) goes on into the next one. No dedent and
// no code below tell where the body ends: its syntax does.
const C_SOURCE = `int add(int a, int b) {
  return a + b;
}
int sub(int a, int b) {
  return a - b;
}
int mul(int a, int b) {
│`;

const JAVA_SOURCE = `public class Calc {
    public int add(int a, int b) {
        return a + b;
    }
    public int sub(int a, int b) {
        return a - b;
    }
    public int mul(int a, int b) {
│`;

const WANTS_PARTIALS = { experimental: { infill: { partialResults: true } } };

/** An inline completion through the built server, at the end of `source` opened as `languageId`. */
async function suggest(file: string, source: string, languageId: string, capabilities = {}) {
  const s = await start({
    built: true,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "endings" }],
    initializationOptions: { debounceMs: 0 },
    sim: { writeOn: true, tokenMs: 2 },
    capabilities,
  });
  const uri = pathToFileURL(join(root, file)).href;
  const at = await s.open(uri, source, languageId);
  // The first document of a language starts its grammar's load, which no request waits for: these ask once it is in.
  const grammar = { c: "c", java: "java" }[languageId];
  if (grammar) {
    await eventually(
      `the ${grammar} grammar`,
      () => status(s),
      (now) => now.server.grammars?.includes(grammar) === true,
    );
  }
  const params = {
    textDocument: { uri },
    position: at,
    context: { triggerKind: 2 },
    partialResultToken: "p",
  };
  const answer = (await s.client.sendRequest("textDocument/inlineCompletion", params)) as {
    items: Array<{ insertText: string }>;
  };
  const partials = s
    .messages(PARTIAL_NOTIFICATION)
    .map((n) => (n.params as { items: Array<{ insertText: string }> }).items[0]!.insertText);
  return { text: answer.items[0]?.insertText, partials };
}

describe("syntax-aware endings, through the built server", () => {
  it("C: a suggestion that closes the function and starts another ends where the function's block ends", async () => {
    const { text } = await suggest("mul.c", C_SOURCE, "c");
    expect(text).toBe("  return a - b;\n}");
  });

  it("Java: a suggestion that closes the method and starts another ends where the method's block ends", async () => {
    const { text } = await suggest("Calc.java", JAVA_SOURCE, "java");
    expect(text).toBe("        return a - b;\n    }");
  });

  it("without a grammar (plain text), the same suggestion keeps today's rules: indentation does not end it", async () => {
    const { text } = await suggest("mul.txt", C_SOURCE, "plaintext");
    expect(text).toBe("  return a - b;\n}\nint mul(int a, int b) {");
  });

  it("with partial results, each partial is a prefix of the answer cut at the block's end", async () => {
    const { text, partials } = await suggest("mul2.c", C_SOURCE, "c", WANTS_PARTIALS);
    expect(text).toBe("  return a - b;\n}");
    expect(partials).toEqual(["  return a - b;"]);
  });
});
