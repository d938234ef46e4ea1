import type { EditTask } from "./edit-task.js";

/** A next-edit request as the routes hand it over: a raw prompt, or chat messages and the answer's forced start. */
export interface EditModelInput {
  prompt?: string | undefined;
  messages?: readonly { role: string; content: string }[] | undefined;
  prefix?: string | undefined;
}

/** A request read in one format: the task, and how that format's model writes the region back. */
export interface ReadRequest {
  task: EditTask;
  /** The text the model writes, given the region's new lines (after the prefix, for chat). */
  write(region: readonly string[]): string;
}

/** One model family's request layout: `read` gives `undefined` for a request in another layout. */
export interface RequestFormat {
  readonly name: "zeta" | "sweep" | "instinct" | "deepseek";
  read(input: EditModelInput): ReadRequest | undefined;
}

/** The content of the last message with that role. */
export function lastMessage(input: EditModelInput, role: string): string | undefined {
  return input.messages?.findLast((message) => message.role === role)?.content;
}
