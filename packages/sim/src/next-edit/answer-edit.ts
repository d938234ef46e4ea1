// A placeholder: the simulator's real edit model (branch ne-formats) replaces this file. Until then every
// next-edit route answers with no text.

/**
 * The text the edit model writes for a next-edit request: after the prompt (raw), after the forced prefix (chat).
 */
export function answerEdit(_input: {
  prompt?: string;
  messages?: { role: string; content: string }[];
  prefix?: string;
}): string {
  return "";
}
