import { describe, expect, it } from "vitest";
import type { Family } from "../../../src/context/types.js";
import { receiverAt } from "../../../src/context/typing/receivers.js";
import { fixture } from "../../support/fixture.js";

/** A line with the cursor (`│`) and the receiver marked `«…»`; no marks: no receiver. */
const CASES: Array<[Family | undefined, string, string?]> = [
  ["typescript", "await «mail».│", ""],
  ["typescript", "await «mail».del│", "del"],
  ["typescript", "  this.«client».│", ""],
  ["typescript", "«this».│", ""],
  ["typescript", 'const x = «connect»("smtp", f(1)).│', ""],
  ["typescript", "«user»?.│", ""],
  ["typescript", "«user»!.na│", "na"],
  ["typescript", "«$el».│", ""],
  ["typescript", "f(...ite│"],
  ["typescript", "const n = 1.│"],
  ["typescript", "const n = 0x1f.│"],
  ["typescript", "items[0].│"],
  ["typescript", "(a as B).│"],
  ["typescript", "g(x)).│"],
  ["typescript", 'const s = "mail.│'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the line is TypeScript with a template literal
  ["typescript", "const s = `${a} mail.│"],
  // A template literal's substitution is code (zod's messages: `${«issue».│`), and its text after it is not.
  ["typescript", "const s = `Expected ${«issue».│", ""],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the line is TypeScript with a template literal
  ["typescript", "const s = `a ${f({ b: 1 })} ${«x».ty│", "ty"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the line is TypeScript with a template literal
  ["typescript", "const s = `${a} ${`${b}`} mail.│"],
  ["typescript", "const s = `${`in ${«y».│", ""],
  ["kotlin", 'val s = "${x.│'],
  ["typescript", "// see mail.│"],
  ["typescript", 'const s = "a\\"b"; «mail».│', ""],
  ["typescript", "mail│"],
  ["typescript", "mail->│"],
  ["python", "«self».│", ""],
  ["python", "# self.│"],
  ["python", "x = 'a#b'; «req».│", ""],
  ["c", "«node»->│", ""],
  ["c", "«node»->ne│", "ne"],
  ["cpp", "«Config»::│", ""],
  ["cpp", "«it»->│", ""],
  ["rust", "«MailClient»::ne│", "ne"],
  ["rust", "fn f<'a>(x: &'a Foo) { «x».│", ""],
  ["rust", "0..«n»│"],
  ["php", "$this->«$mail»->│", ""],
  ["php", "«$this»->│", ""],
  ["go", "«client».│", ""],
  ["java", "«list».│", ""],
  ["typescript", "Config::│"],
  ["lua", "-- «x».│"],
  ["lua", "«x».│", ""],
  [undefined, "«x».│", ""],
  [undefined, "x->│"],
];

describe("receiverAt", () => {
  it.each(CASES)("%s: %s", (family, marked, member) => {
    const open = marked.indexOf("«");
    const close = marked.indexOf("»");
    const { text, position } = fixture(marked.replace("«", "").replace("»", ""));
    const found = receiverAt(text, position, family);
    if (member === undefined) {
      expect(found).toBeUndefined();
      return;
    }
    expect(found).toMatchObject({ line: 0, character: open, member });
    const name = marked.slice(open + 1, close);
    expect(text.slice(found!.character, found!.character + name.length)).toBe(name);
  });

  it("ends a call's receiver at its closing parenthesis, and keeps the line", () => {
    const { text } = fixture('connect("smtp").d│');
    expect(receiverAt(text, { line: 7, character: text.length }, "typescript")).toEqual({
      line: 7,
      character: 0,
      end: 'connect("smtp")'.length,
      member: "d",
    });
  });
});
