// What usage is split by, besides the provider and model: the language of the document, whether the request
// carried repository context, and what kind of suggestion it asked for. They go to the usage log, so they are names
// from a short list, never a path.

/**
 * Whether an upstream request carried the repository context block: `on` (context enabled and sent, even when it
 * found nothing to send), `holdout` (context enabled, but this request was chosen to go without it: the
 * `context.holdout` setting), `off` (context disabled).
 */
export type ContextArm = "on" | "holdout" | "off";

/** The arms, in the order reports list them. */
export const CONTEXT_ARMS: readonly ContextArm[] = ["on", "holdout", "off"];

/** The value of a dimension that lines written before it existed, or a value that is not one, are counted under. */
export const UNKNOWN_DIMENSION = "unknown";

// LSP language ids are short lowercase words (`typescript`, `cpp`, `objective-c`, `shellscript`, `csharp`); a
// client may send anything, so only such a word is kept.
const LANGUAGE_ID = /^[a-z][a-z0-9_+#.-]{0,39}$/;

/**
 * The language a count goes under: the document's LSP language id when it is a short word of letters, digits and
 * `_+#.-` (lowercased, at most 40 characters), else `unknown` (a client that sends a path or a sentence).
 */
export function usageLanguage(languageId: string): string {
  const id = languageId.toLowerCase();
  return LANGUAGE_ID.test(id) ? id : UNKNOWN_DIMENSION;
}

/** Whether a value read from the log is one of the {@link ContextArm}s. */
export function isContextArm(value: string): value is ContextArm {
  return (CONTEXT_ARMS as readonly string[]).includes(value);
}

/**
 * What kind of suggestion a count is of: `completion` (text at the cursor) or `next-edit` (an edit near it, the
 * change the user is likely to make next).
 */
export type UsageKind = "completion" | "next-edit";

/** The kinds, in the order reports list them. */
export const USAGE_KINDS: readonly UsageKind[] = ["completion", "next-edit"];

/** The kind of the lines written before kinds were recorded: completions, the only kind there was. */
export const DEFAULT_USAGE_KIND: UsageKind = "completion";

/** Whether a value read from the log is one of the {@link UsageKind}s. */
export function isUsageKind(value: string): value is UsageKind {
  return (USAGE_KINDS as readonly string[]).includes(value);
}
