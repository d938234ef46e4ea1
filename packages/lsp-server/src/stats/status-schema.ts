// What `workspace/executeCommand` `infill.status` answers, as one zod schema: the server builds its answer to this
// type (a type-only import: zod is not loaded for it), and other tools validate what they get with it
// (`@infill/lsp-server/status`). Unknown fields are dropped rather than refused, so a tool keeps working with a
// newer server that adds some.
import * as z from "zod/mini";

const count = z.int().check(z.gte(0));
const ratio = z.nullable(z.number().check(z.gte(0), z.lte(1)));

const LatencySchema = z.object({
  /** Median latency, in ms, over the latest `samples`; null when there are none. */
  p50: z.nullable(z.number()),
  /** 90th percentile, in ms. */
  p90: z.nullable(z.number()),
  /** How many latencies the percentiles are taken over (the latest 1000 at most). */
  samples: count,
});

const perUnit = z.nullable(z.number().check(z.gte(0)));

/** What is still there of the characters taken, at one retention horizon. */
const RetainedSchema = z.object({
  /** The horizon, in seconds after the suggestion was first taken (`usage.retentionChecks`). */
  seconds: z.number().check(z.gt(0)),
  /** Characters taken whose check at this horizon ran (more recent ones are not checked yet). */
  checkedChars: count,
  /** Of those, the characters still in the document where they went. */
  retainedChars: count,
  /** `retainedChars / checkedChars`; null when none was checked. */
  rate: ratio,
  /** Characters kept per US dollar: `acceptedCharsPerDollar` × `rate`; null without either. */
  perDollar: perUnit,
  /** Characters kept per 1000 generated tokens: `acceptedCharsPer1kOutputTokens` × `rate`. */
  per1kOutputTokens: perUnit,
});

/**
 * The figures of one scope (the process, a workspace folder, a model, a language, a context arm). Costs are
 * estimates, in US dollars.
 */
export const FiguresSchema = z.object({
  /** Upstream requests sent. */
  requests: count,
  /** Requests aborted because the editor stopped waiting (a cancelled request, a closed document). */
  cancelled: count,
  /** Requests aborted because newer typing made them useless. */
  superseded: count,
  /** Requests that failed; by kind in `failures`. */
  failed: count,
  /** Requests that ended without a usage report (cut short once the suggestion was settled, or aborted). */
  unreported: count,
  /** Prompt tokens served from the provider's context cache. */
  cacheHitTokens: count,
  /** Prompt tokens not in the cache. */
  cacheMissTokens: count,
  /** Generated tokens. */
  completionTokens: count,
  /** Estimated cost of the tokens in US dollars, at list prices (see `price`). */
  cost: z.number().check(z.gte(0)),
  /** Tokens of models without a price, not in `cost`. */
  unpricedTokens: count,
  /**
   * Distinct suggestions the editor showed: reported by the client (`shownBy: "client"`), or answered and not
   * replaced for `shownAfterMs` (`"timer"`), or taken.
   */
  shown: count,
  /** Suggestions taken whole (accepted, typed to their end, or their text put at their place by the editor). */
  accepted: count,
  /** Suggestions taken in part (a word, a line, typed partway). */
  acceptedPartly: count,
  /** Characters (code points) of suggestions taken. */
  acceptedChars: count,
  /** `cacheHitTokens` over all prompt tokens; null when none were reported. */
  cacheHitRatio: ratio,
  /** Suggestions taken whole or in part over `shown`; null when none was shown. */
  acceptanceRate: ratio,
  /** `acceptedChars` per US dollar of estimated cost; null when nothing priced was spent. */
  acceptedCharsPerDollar: perUnit,
  /** `acceptedChars` per 1000 generated tokens; null when none were reported. */
  acceptedCharsPer1kOutputTokens: perUnit,
  /** What is still there of the characters taken, at each retention horizon (shortest first). */
  retained: z.array(RetainedSchema),
  /**
   * Failed requests by kind: those of `@infill/core/failure` (`auth`, `balance`, `rate-limit`, `model-not-found`,
   * `fim-unsupported`, `no-endpoint`, `bad-request`, `invalid-request`, `unavailable`), and `other`.
   */
  failures: z.record(z.string(), count),
  latency: z.object({
    /** From the completion request to the first answer showing a new suggestion. */
    endToEnd: LatencySchema,
    /** Upstream requests that completed, from sending to their last byte. */
    upstream: LatencySchema,
  }),
});

/**
 * Next-edit suggestions' own figures (their requests are not in the completion figures): requests and tokens as
 * completions count them, `shown` (the client said so with `textDocument/didShowInlineEdit`, or the first edit of an
 * answer it got), `accepted` (the client ran the edit's command, or the document holds it), `acceptanceRate`, and:
 */
export const NextEditFiguresSchema = z.extend(
  z.pick(FiguresSchema, {
    requests: true,
    cancelled: true,
    superseded: true,
    failed: true,
    unreported: true,
    cacheHitTokens: true,
    cacheMissTokens: true,
    completionTokens: true,
    cost: true,
    unpricedTokens: true,
    shown: true,
    accepted: true,
    acceptanceRate: true,
    acceptedChars: true,
    failures: true,
  }),
  {
    /** What is still there of the characters applied, at each retention horizon (shortest first). */
    retained: z.array(
      z.pick(RetainedSchema, { seconds: true, checkedChars: true, retainedChars: true, rate: true }),
    ),
    /** Edits shown and dropped without being accepted (an edit elsewhere, the next answer, the document closed). */
    dismissed: count,
    /** Answers that were not what their format says, by problem (never shown). */
    malformed: z.record(z.string(), count),
  },
);

/** The answer to `infill.status`. */
export const StatusSchema = z.object({
  /** Version of this format; fields are only added within a version. */
  version: z.literal(1),
  server: z.object({
    name: z.literal("infill-lsp"),
    version: z.string(),
    pid: z.int(),
    /** When this server started (ISO 8601). */
    startedAt: z.string(),
    uptimeMs: z.number(),
    /**
     * The process's memory now, in bytes (`process.memoryUsage()`): `rss` resident, `heapUsed` of `heapTotal` the
     * V8 heap (garbage not collected yet included), `external` memory outside it that JavaScript objects hold
     * (Buffers among it). Absent from servers older than this field.
     */
    memory: z.optional(z.object({ rss: count, heapUsed: count, heapTotal: count, external: count })),
    /**
     * The tree-sitter grammars loaded now (`c`, `java`, …): a language's is loaded when its first document is read,
     * and syntax-aware endings and outlines have it from then on. Absent from servers older than this field.
     */
    grammars: z.optional(z.array(z.string())),
  }),
  /** The provider and model of the current settings. */
  provider: z.string(),
  model: z.string(),
  /** The price of `model` per million tokens, in US dollars, and where it comes from; null when unknown. */
  price: z.nullable(
    z.object({
      cacheHit: z.number(),
      cacheMiss: z.number(),
      output: z.number(),
      source: z.enum(["built-in", "setting"]),
    }),
  ),
  /** Month of the newest copy of DeepSeek's pricing page the built-in prices were checked against. */
  pricesAsOf: z.string(),
  /** Every cost here is an estimate: list prices, no discounts or time-of-day rates. */
  costsAreEstimates: z.literal(true),
  currency: z.literal("USD"),
  /** Everything this server counted since it started. */
  total: FiguresSchema,
  /** Per workspace folder (`folder` null: documents outside every folder). */
  workspaces: z.array(z.object({ folder: z.nullable(z.string()), figures: FiguresSchema })),
  /** Per provider and model. */
  models: z.array(z.object({ provider: z.string(), model: z.string(), figures: FiguresSchema })),
  /** Per language: the documents' LSP language id (`unknown` for one that is not a short word). */
  languages: z.array(z.object({ language: z.string(), figures: FiguresSchema })),
  /**
   * Per context arm: requests sent with repository context (`on`), held out by `context.holdout` (`holdout`), or
   * with context off (`off`); suggestions count under the arm of the request they came from.
   */
  contexts: z.array(z.object({ context: z.enum(["on", "holdout", "off"]), figures: FiguresSchema })),
  /** The retention horizons of the settings, in seconds (`usage.retentionChecks`). */
  retentionChecks: z.array(z.number()),
  /**
   * Where the retention checks stand: suggestions taken whose checks are still to come (`pending`, at most 2000),
   * places followed through edits (`followed`), and the checks a bound on memory dropped, never made, with the
   * characters they would have looked for (`unchecked`, `uncheckedChars`: the oldest suggestion's remaining checks go
   * when a 2001st is taken). Absent from servers older than this field.
   */
  retentionQueue: z.optional(
    z.object({ pending: count, followed: count, unchecked: count, uncheckedChars: count }),
  ),
  /** The share of requests sent without repository context to measure its effect (`context.holdout`). */
  contextHoldout: z.number().check(z.gte(0), z.lte(1)),
  /**
   * How a suggestion counts as shown: the client says so (`client`: the Neovim plugin draws ghost text), or it was
   * answered and not replaced for `shownAfterMs` (`timer`); taking one always counts it shown.
   */
  shownBy: z.enum(["client", "timer"]),
  /** The `timer` rule's wait, in ms. */
  shownAfterMs: z.number(),
  /** Next-edit suggestions, when they are on (`nextEdit.enabled`). Absent from servers older than this field. */
  nextEdits: z.optional(NextEditFiguresSchema),
  /** The usage log the day's totals go to (`infill usage` reads it). */
  log: z.object({
    /** Whether totals are written (`usage.persist`, and a place to write them). */
    enabled: z.boolean(),
    /** This month's file; null when there is none. */
    file: z.nullable(z.string()),
    /** The last error writing it, if the last write failed. */
    error: z.nullable(z.string()),
  }),
});

/** What `infill.status` answers. */
export type Status = z.infer<typeof StatusSchema>;
/** The next-edit figures of a {@link Status}. */
export type NextEditFigures = z.infer<typeof NextEditFiguresSchema>;
/** The figures of one scope of a {@link Status}. */
export type Figures = z.infer<typeof FiguresSchema>;
