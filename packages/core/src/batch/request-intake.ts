import { type ModelPrice, priceOf } from "../prices.js";
import type { Ticket } from "./aimd.js";
import { type BatchFailure, type CheckedRecord, invalid, readRecord } from "./batch-record.js";
import { estimateTokens, FIM_MAX_TOKENS, worstCaseCost } from "./cost-estimate.js";

// How an input record of a batch becomes a request on its way: read and checked, refused when its id came before
// or when the cost cap cannot bound it, and given the estimates the limits count it by. Pure: records in, requests
// or failures out.

/** One request on its way: the checked record and how it has fared. */
export interface Pending extends CheckedRecord {
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

/** Turns a batch's input records into requests, remembering the ids seen. */
export class RequestIntake {
  readonly #model: string | undefined;
  readonly #prices: Readonly<Record<string, ModelPrice>>;
  readonly #pricesNeeded: boolean;
  readonly #seen = new Map<string, number>();

  /**
   * @param model the model of records that name none; undefined to leave it to the provider.
   * @param prices prices that correct or add to the list prices.
   * @param pricesNeeded whether a request needs a known price (a cost cap is set).
   */
  constructor(
    model: string | undefined,
    prices: Readonly<Record<string, ModelPrice>>,
    pricesNeeded: boolean,
  ) {
    this.#model = model;
    this.#prices = prices;
    this.#pricesNeeded = pricesNeeded;
  }

  /**
   * Reads an input record; a bad one becomes a failure result, a good one a request to send. Its request is checked
   * by the client before it is sent (a refused one gives a failure result too): checking it here as well would cost
   * a second validation of every request.
   *
   * @param line the record's position (1-based).
   * @param typicalCompletion generated tokens counted ahead for a request with no `max_tokens`.
   */
  admit(record: unknown, line: number, typicalCompletion: number): Pending | BatchFailure {
    const checked = readRecord(record, line, this.#model);
    if ("error" in checked) return checked;
    const first = this.#seen.get(checked.key);
    if (first !== undefined) {
      return invalid(checked.id, line, `line ${line}: duplicate id ${checked.key} (first on line ${first})`);
    }
    this.#seen.set(checked.key, line);
    const price = checked.model === undefined ? undefined : priceOf(checked.model, this.#prices);
    if (this.#pricesNeeded && price === undefined) {
      const model = checked.model ?? "the server's model";
      return invalid(
        checked.id,
        line,
        `line ${line}: no price is known for ${model}, so maxCost cannot bound it`,
      );
    }
    const promptTokens = estimateTokens(checked.chars);
    const maxTokens = checked.maxTokens ?? FIM_MAX_TOKENS;
    // Spelled out rather than spread: one object shape for every request, built once each.
    return {
      id: checked.id,
      key: checked.key,
      line: checked.line,
      request: checked.request,
      model: checked.model,
      chars: checked.chars,
      maxTokens: checked.maxTokens,
      price,
      promptTokens,
      taken: promptTokens + (checked.maxTokens ?? typicalCompletion),
      worstCost: price === undefined ? 0 : worstCaseCost(promptTokens, maxTokens, price),
      rateLimits: 0,
      notBefore: 0,
      ticket: undefined,
    };
  }
}
