// What becomes of one next edit, and what each step adds to the counts: pure, so the rules are tested with a table.

/** Where a next edit stands: answered to the client, shown there, taken, or shown and passed over. */
export type NextEditFate = "offered" | "shown" | "accepted" | "dismissed";

/** What happened to it: the client showed it, applied it (by its command or the document holding it), or it went. */
export type NextEditEvent = "shown" | "accepted" | "dropped";

/** What a step adds to the figures. */
export interface FateDelta {
  shown: number;
  accepted: number;
  dismissed: number;
}

const NONE: FateDelta = { shown: 0, accepted: 0, dismissed: 0 };

/**
 * The next fate of an edit and what the step adds. An edit counts as shown once, and an accepted one was shown;
 * dismissed is a shown edit dropped without being accepted (an edit elsewhere, the next answer, the document
 * closed); one never shown that goes is not counted; an accept that comes after the drop (a client that reports
 * late) turns the dismissal into an accept. Nothing is counted twice.
 */
export function nextFate(
  fate: NextEditFate | undefined,
  event: NextEditEvent,
): { fate: NextEditFate | undefined; delta: FateDelta } {
  const from = fate ?? "offered";
  switch (event) {
    case "shown":
      return from === "offered"
        ? { fate: "shown", delta: { ...NONE, shown: 1 } }
        : { fate: from, delta: NONE };
    case "accepted":
      if (from === "accepted") return { fate: from, delta: NONE };
      return {
        fate: "accepted",
        delta: { shown: from === "offered" ? 1 : 0, accepted: 1, dismissed: from === "dismissed" ? -1 : 0 },
      };
    case "dropped":
      if (from === "shown") return { fate: "dismissed", delta: { ...NONE, dismissed: 1 } };
      // Never shown: it goes uncounted; taken or dismissed already: it stays so.
      return { fate: from === "offered" ? undefined : from, delta: NONE };
  }
}
