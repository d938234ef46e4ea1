// The scripted editor's answer to `infill/typeDefinitions` in the eval (issue 24's "(2)"): the receiver's type at
// the receiver's position only, as a language server answers there.
import { describe, expect, it } from "vitest";
import type { Hole } from "../eval/hole.js";
import { answerTypeDefinitions, ScriptedTypeDefinitions } from "../eval/type-answers.js";

const store = { file: "b/Store.java", line: 1 };
const base = { file: "b/Base.java", line: 4 };
const hole = {
  file: "a/App.java",
  receiverType: { line: 6, character: 4, end: 9, declarations: [store, base] },
} satisfies Pick<Hole, "file" | "receiverType">;

describe("answerTypeDefinitions", () => {
  it.each([
    { case: "the receiver: the first declaration", file: "a/App.java", at: [6, 4], want: store },
    { case: "inside the receiver's name", file: "a/App.java", at: [6, 8], want: store },
    { case: "right after the name (the operator)", file: "a/App.java", at: [6, 9], want: null },
    { case: "before the name", file: "a/App.java", at: [6, 3], want: null },
    { case: "the member's position", file: "a/App.java", at: [6, 10], want: null },
    { case: "another line", file: "a/App.java", at: [5, 4], want: null },
    { case: "another file", file: "a/Other.java", at: [6, 4], want: null },
  ])("$case", ({ file, at, want }) => {
    expect(answerTypeDefinitions(hole, file, [{ line: at[0]!, character: at[1]! }])).toEqual([want]);
  });

  it("answers each position of a question, null where the oracle knows nothing or no hole is typed", () => {
    const at = [
      { line: 6, character: 4 },
      { line: 0, character: 0 },
    ];
    expect(answerTypeDefinitions(hole, "a/App.java", at)).toEqual([store, null]);
    const unknown = { ...hole, receiverType: { ...hole.receiverType, declarations: [] } };
    expect(answerTypeDefinitions(unknown, "a/App.java", at)).toEqual([null, null]);
    expect(answerTypeDefinitions({ file: "a/App.java" }, "a/App.java", at)).toEqual([null, null]);
    expect(answerTypeDefinitions(undefined, "a/App.java", at)).toEqual([null, null]);
  });
});

describe("ScriptedTypeDefinitions", () => {
  it("counts per hole what was asked, at the receiver, and located", () => {
    const editor = new ScriptedTypeDefinitions();
    editor.begin({
      ...hole,
      id: "a",
      line: 6,
      character: 11,
      offset: 0,
      name: "find",
      stratum: "name",
      pattern: "access",
      declarations: [],
      imports: [],
      crossPackage: false,
    });
    editor.answer("a/App.java", [{ line: 6, character: 4 }]);
    editor.answer("a/App.java", [{ line: 6, character: 10 }]);
    // Inside the receiver's name counts as at the receiver, as it is answered.
    editor.answer("a/App.java", [{ line: 6, character: 7 }]);
    expect(editor.end()).toEqual({ asked: 3, atReceiver: 2, located: 2 });
    // No hole typed: nothing is answered.
    expect(editor.answer("a/App.java", [{ line: 6, character: 4 }])).toEqual([null]);
  });
});
