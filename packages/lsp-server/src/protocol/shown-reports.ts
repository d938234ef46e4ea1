/**
 * Whether the client says when it shows a suggestion, by running `infill.shown` with `[{ id }]` (the client
 * capability `experimental.infill.reportsShown: true`; the Neovim plugin declares it when it draws ghost text
 * itself). Such a client's suggestions count as shown when it says so; other clients' once they stayed answered for
 * a moment (see stats/suggestion-outcomes.ts).
 */
export function clientReportsShown(capabilities: unknown): boolean {
  const experimental = (
    capabilities as { experimental?: { infill?: { reportsShown?: unknown } } } | undefined
  )?.experimental;
  return experimental?.infill?.reportsShown === true;
}
