import { type ModelPrice, priceOf } from "../prices.js";
import type { Ticket } from "./aimd.js";
import {
  type BatchFailure,
  type BatchId,
  idKey,
  invalid,
  invalidRequest,
  isFailure,
  readRecord,
} from "./batch-record.js";
import type { BatchTarget } from "./batch-target.js";
import { estimateTokens, FIM_MAX_TOKENS, worstCaseCost } from "./cost-estimate.js";
import { inputKey } from "./resume.js";
import { type BatchShard, shardOf } from "./shard.js";

// How an input record of a batch becomes a request on its way: read, checked and made ready to send by the
// target, refused when its id came before or when the cost cap cannot bound it, and given the estimates the limits
// count it by; a record of another shard is passed over. Records in, requests or failures out; the target's
// prepare() is its only call out, and it does no I/O.

/** One request on its way: the checked record and how it has fared. */
export interface Pending {
  id: BatchId;
  /** Its input line (1-based), or its position among the requests. */
  line: number;
  /** What the target sends (see BatchTarget.prepare). */
  prepared: unknown;
  /** The model it goes to; undefined when the provider serves its own (llama.cpp). */
  model: string | undefined;
  /** Its `max_tokens`, when set. */
  maxTokens: number | undefined;
  price: ModelPrice | undefined;
  /** Estimated prompt tokens. */
  promptTokens: number;
  /** What it took from the tokens-per-minute bucket, while in flight. */
  taken: number;
  /** The most it can cost (US dollars), reserved while in flight. */
  worstCost: number;
  /** 429s so far. */
  rateLimits: number;
  /** Not sent again before this time (performance.now() ms). */
  notBefore: number;
  ticket: Ticket | undefined;
}

/** Options of {@link RequestIntake}. */
export interface IntakeOptions {
  /** The model of records that name none; undefined to leave it to the provider. */
  model: string | undefined;
  /** Prices that correct or add to the list prices. */
  prices: Readonly<Record<string, ModelPrice>>;
  /** Whether a request needs a known price (a cost cap is set). */
  pricesNeeded: boolean;
  /** The shard this run takes; undefined for every record. */
  shard?: BatchShard | undefined;
}

/** Turns a batch's input records into requests, remembering the ids seen. */
export class RequestIntake {
  readonly #target: BatchTarget;
  readonly #options: IntakeOptions;
  // By type: the id 1 and the id "1" are two ids, and an integer key needs no string made for it.
  readonly #seenNumbers = new Map<number, number>();
  readonly #seenStrings = new Map<string, number>();

  constructor(target: BatchTarget, options: IntakeOptions) {
    this.#target = target;
    this.#options = options;
  }

  /**
   * Reads an input record; a bad one becomes a failure result, a good one a request to send, and one of another
   * shard undefined.
   *
   * @param line the record's position (1-based).
   * @param typicalCompletion generated tokens counted ahead for a request with no `max_tokens`.
   */
  admit(record: unknown, line: number, typicalCompletion: number): Pending | BatchFailure | undefined {
    const { model, shard } = this.#options;
    if (
      shard !== undefined &&
      shard.count > 1 &&
      shardOf(inputKey(record, line), shard.count) !== shard.index
    ) {
      return undefined;
    }
    const checked = readRecord(record, line, model);
    if (isFailure(checked)) return checked;
    const { id } = checked;
    const seen: Map<BatchId, number> = typeof id === "number" ? this.#seenNumbers : this.#seenStrings;
    const first = seen.get(id);
    if (first !== undefined) {
      return invalid(id, line, `line ${line}: duplicate id ${idKey(id)} (first on line ${first})`);
    }
    seen.set(id, line);
    const price = checked.model === undefined ? undefined : priceOf(checked.model, this.#options.prices);
    if (this.#options.pricesNeeded && price === undefined) {
      const name = checked.model ?? "the server's model";
      return invalid(id, line, `line ${line}: no price is known for ${name}, so maxCost cannot bound it`);
    }
    let prepared: unknown;
    try {
      prepared = this.#target.prepare(checked.record, model);
    } catch (error) {
      return invalidRequest(checked, error);
    }
    const promptTokens = estimateTokens(checked.chars);
    const maxTokens = checked.maxTokens;
    return {
      id,
      line,
      prepared,
      model: checked.model,
      maxTokens,
      price,
      promptTokens,
      taken: promptTokens + (maxTokens ?? typicalCompletion),
      worstCost: price === undefined ? 0 : worstCaseCost(promptTokens, maxTokens ?? FIM_MAX_TOKENS, price),
      rateLimits: 0,
      notBefore: 0,
      ticket: undefined,
    };
  }
}
