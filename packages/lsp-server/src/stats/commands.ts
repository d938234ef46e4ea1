/**
 * The command an item carries: clients execute it when the user takes the item, with `[{ id, chars }]` (the
 * suggestion's id, and how far into the suggestion the text taken reaches, in characters).
 */
export const ACCEPTED_COMMAND = "infill.accepted";

/**
 * The command a client that draws suggestions itself runs when it shows one, with `[{ id }]` (the id of the item's
 * `infill.accepted` command), if it declared the client capability `experimental.infill.reportsShown`.
 */
export const SHOWN_COMMAND = "infill.shown";

/**
 * Answers the server's usage figures (`Status`); also shows them as a one-line message unless called with
 * `[{ "message": false }]`, for editors that do nothing with a command's result.
 */
export const STATUS_COMMAND = "infill.status";

/**
 * The command each next edit carries (`textDocument/copilotInlineEdit`'s edits, the code actions): clients run it
 * with `[id]` when the user accepts the edit, as copilot-language-server's `github.copilot.didAcceptNextEditSuggestionItem`
 * is run with its item's id.
 */
export const NEXT_EDIT_ACCEPTED_COMMAND = "infill.nextEditAccepted";
