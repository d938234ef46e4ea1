import { formatCost, formatHorizon, formatPercent } from "@infill/core/usage";
import type { Status } from "./status-schema.js";

/**
 * The status as one line, for editors that only show a message (Helix's `:lsp-workspace-command infill.status`
 * shows nothing of a command's result): requests, prompt tokens and the share cached, the estimated cost, the
 * suggestions taken of those shown, the characters taken and the share still there at the longest horizon checked,
 * the median latency, and next edits' requests, cost, the edits taken of those shown and the share of their text still
 * there at the longest horizon checked, since the server started.
 */
export function statusLine(status: Status): string {
  const t = status.total;
  const prompt = t.cacheHitTokens + t.cacheMissTokens;
  const parts = [
    `${t.requests} request${t.requests === 1 ? "" : "s"}`,
    `${prompt.toLocaleString("en-US")} prompt tokens (${formatPercent(t.cacheHitRatio)} cached)`,
    `est. ${formatCost(t.cost)}${t.unpricedTokens > 0 ? " + unpriced" : ""}`,
    `taken ${t.accepted + t.acceptedPartly} of ${t.shown} (${formatPercent(t.acceptanceRate)})`,
  ];
  const kept = t.retained.filter((r) => r.checkedChars > 0).at(-1);
  if (kept) {
    parts.push(
      `${kept.checkedChars.toLocaleString("en-US")} chars kept ${formatPercent(kept.rate)} at ${formatHorizon(kept.seconds)}`,
    );
  }
  if (t.latency.endToEnd.p50 !== null) parts.push(`p50 ${Math.round(t.latency.endToEnd.p50)} ms`);
  const next = status.nextEdits;
  if (next && (next.requests > 0 || next.shown > 0)) {
    const nextKept = next.retained.filter((r) => r.checkedChars > 0).at(-1);
    parts.push(
      `next edits: ${next.requests} request${next.requests === 1 ? "" : "s"}, est. ${formatCost(next.cost)}, taken ${next.accepted} of ${next.shown} (${formatPercent(next.acceptanceRate)})${nextKept ? `, kept ${formatPercent(nextKept.rate)} at ${formatHorizon(nextKept.seconds)}` : ""}`,
    );
  }
  // Short enough for one status line (Helix shows one row).
  return `infill: ${parts.join(", ")}`;
}
