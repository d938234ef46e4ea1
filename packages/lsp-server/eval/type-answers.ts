// The scripted editor's answer to `infill/typeDefinitions` (issue 24's "(2)"): at a member-access hole, what the
// editor's own language server says at the receiver, as the hole's oracle knows it; nothing anywhere else.
import type { Position } from "vscode-languageserver-protocol/node";
import type { Hole } from "./hole.js";

/** A type's declaration as the editor answers it: a workspace-relative file and the 0-based line of its name. */
export interface TypeAnswer {
  readonly file: string;
  readonly line: number;
}

/**
 * The answers to a question about `file` (workspace-relative) at `positions`, while `hole` is being typed: at the
 * hole's receiver (its file, its line, a character of its name), the first declaration of the receiver's type the
 * oracle knows, as Neovim answers with the first location its language server gives; null elsewhere, and where the
 * oracle knows none (a language server that finds nothing). Pure.
 */
export function answerTypeDefinitions(
  hole: Pick<Hole, "file" | "receiverType"> | undefined,
  file: string,
  positions: readonly Position[],
): Array<TypeAnswer | null> {
  return positions.map((position) =>
    hole?.receiverType && atReceiver(hole, file, position)
      ? (hole.receiverType.declarations[0] ?? null)
      : null,
  );
}

/** Whether a position of `file` is in the name of the hole's receiver. */
function atReceiver(
  hole: Pick<Hole, "file" | "receiverType"> | undefined,
  file: string,
  position: Position,
): boolean {
  const receiver = hole?.receiverType;
  return (
    receiver !== undefined &&
    hole?.file === file &&
    position.line === receiver.line &&
    position.character >= receiver.character &&
    position.character < receiver.end
  );
}

/** What the editor was asked while one hole was typed, in positions. */
export interface TypeQuestions {
  /** Positions asked about. */
  readonly asked: number;
  /** Of those, at the hole's receiver. */
  readonly atReceiver: number;
  /** Of those, answered with a location. */
  readonly located: number;
}

/** The scripted editor across holes: the hole being typed, and what it was asked meanwhile. */
export class ScriptedTypeDefinitions {
  #hole: Hole | undefined;
  #asked = 0;
  #atReceiver = 0;
  #located = 0;

  /** A hole is being typed: questions from now on are about it. */
  begin(hole: Hole): void {
    this.#hole = hole;
    this.#asked = 0;
    this.#atReceiver = 0;
    this.#located = 0;
  }

  /** The hole is done: what was asked while it was typed. */
  end(): TypeQuestions {
    this.#hole = undefined;
    return { asked: this.#asked, atReceiver: this.#atReceiver, located: this.#located };
  }

  /** The editor's answer to a question, counted. */
  answer(file: string, positions: readonly Position[]): Array<TypeAnswer | null> {
    const answers = answerTypeDefinitions(this.#hole, file, positions);
    this.#asked += positions.length;
    this.#atReceiver += positions.filter((p) => atReceiver(this.#hole, file, p)).length;
    this.#located += answers.filter((a) => a !== null).length;
    return answers;
  }
}
