import type { OpenDocument } from "../../documents/documents.js";
import { wholeText } from "../document-lines.js";
import { openDocumentTooLarge } from "../files/file-policy.js";
import { supportFor } from "../lang/index.js";
import { familyOf } from "../languages.js";
import { maskCode } from "../scan/scan.js";
import type { Family, LanguageSupport, ParsedModule } from "../types.js";

/** The analysis of an open document's language (by its language id, else its extension); none for the others. */
export function supportOf(doc: OpenDocument): LanguageSupport | undefined {
  const family = familyOf(doc.languageId, doc.uri);
  return family ? supportFor(family) : undefined;
}

/** The analysis of a file's language, by its extension; none for the others. */
export function supportOfPath(path: string): LanguageSupport | undefined {
  const family = familyOf(undefined, path);
  return family ? supportFor(family) : undefined;
}

/** What only C++ writes (a C header's `extern "C"` guard aside): a class, a namespace, a template, `::`. */
const CPP_ONLY =
  /\b(?:class|namespace|template|typename|virtual|public:|private:|protected:|constexpr|nullptr)\b|::/;

/**
 * The family of a `.h` file by its text: C++ when it shows C++ (its grammar reads C too), else C. So a C project
 * never loads the C++ grammar (about 23 MB of compiled WebAssembly) for its headers.
 */
export function headerFamily(text: string): Family {
  // In code only: a comment that says "class" or "template", a string with `::`, are not C++.
  return CPP_ONLY.test(maskCode(text, "c")) ? "cpp" : "c";
}

/** The analysis of a file's language, by its extension and, for a `.h` header, its text (`headerFamily`). */
export function supportOfFile(path: string, text: string): LanguageSupport | undefined {
  return path.endsWith(".h") ? supportFor(headerFamily(text)) : supportOfPath(path);
}

/** Parse a file of a known family; undefined for the others. */
export function parseFile(path: string, text: string): ParsedModule | undefined {
  const support = supportOfFile(path, text);
  if (!support) return undefined;
  return { path, ...support.parse(text) };
}

/**
 * Parse an open document (the whole buffer): incrementally from its previous version's tree where the language
 * keeps one; undefined for a document of no known family, or too large to be context.
 */
export function parseOpenDocument(doc: OpenDocument, path: string): ParsedModule | undefined {
  const support = supportOf(doc);
  if (!support || openDocumentTooLarge(doc.buffer.length)) return undefined;
  const text = wholeText(doc);
  return {
    path,
    ...(support.parseOpen ? support.parseOpen(doc.uri, text, doc.buffer) : support.parse(text)),
  };
}
