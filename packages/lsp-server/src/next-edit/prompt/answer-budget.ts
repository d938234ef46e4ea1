/**
 * The output tokens to allow an answer that writes `text` again, changed: about three characters a token (the guess
 * Zed's formats make), half as much again for what the edit adds, and 64 spare; at most 4,096.
 */
export function answerTokenBudget(text: string): number {
  return Math.min(4_096, 64 + Math.ceil(text.length / 2));
}
