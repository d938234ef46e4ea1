import { completeBody, FimClient } from "../client.js";
import { DEFAULT_MODEL } from "../models.js";
import type { ProviderClient } from "../provider-client.js";
import type { FimRequest } from "../providers/fim-request.js";
import { serializeRequest } from "../request-body.js";
import { fastRequestBody } from "../request-fast-path.js";
import type { CompletionRequest, CompletionResponse, Logprobs, Usage } from "../schemas.js";
import type { RequestOptions } from "../transport.js";

/** One answer, whichever client gave it. */
export interface TargetAnswer {
  text: string;
  finish_reason: string | null;
  usage: Usage | undefined;
  /** DeepSeek only, when the request asked for `logprobs`. */
  logprobs?: Logprobs | undefined;
}

/**
 * What a batch needs of a client: its default model, each record's request checked (as complete() checks it before
 * any I/O) and made ready to send, and sending it with one shape of answer. FimClient takes DeepSeek's whole request
 * (echo, logprobs, penalties, top_p…) and is sent the body serialised once, when the record is read; ProviderClient
 * takes the portable FimRequest, for every provider.
 */
export interface BatchTarget {
  /** The model of requests that name none; undefined when the provider has no default (llama.cpp, OpenAI-compatible). */
  readonly defaultModel: string | undefined;
  /**
   * The request of an input record, checked as complete() checks it and ready for send(): the record's `id` left
   * out, `model` filled in when it names none.
   * @throws {ValidationError} naming the first offending field.
   */
  prepare(record: Record<string, unknown>, model: string | undefined): unknown;
  /** Sends what prepare() gave. */
  send(prepared: unknown, options: RequestOptions): Promise<TargetAnswer>;
}

/** The batch's view of a client. */
export function batchTarget(client: FimClient | ProviderClient): BatchTarget {
  if (client instanceof FimClient) {
    return {
      defaultModel: DEFAULT_MODEL,
      prepare(record, model) {
        // complete() refuses `stream: true`, which the schema (and so the fast path) allows.
        const fast = record.stream === true ? undefined : fastRequestBody(record, model, "id");
        return fast ?? serializeRequest(requestOf(record, model) as CompletionRequest, false);
      },
      send(body, options) {
        return completeBody(client, body as string, options).then(fimAnswer);
      },
    };
  }
  return {
    defaultModel: client.model,
    prepare(record, model) {
      const request = requestOf(record, model);
      client.check(request as FimRequest);
      return request;
    },
    async send(request, options) {
      const { text, finish_reason, usage } = await client.complete(request as FimRequest, options);
      return { text, finish_reason, usage };
    },
  };
}

function fimAnswer(response: CompletionResponse): TargetAnswer {
  const choice = response.choices[0];
  const answer: TargetAnswer = {
    text: choice?.text ?? "",
    finish_reason: choice?.finish_reason ?? null,
    usage: response.usage,
  };
  if (choice?.logprobs != null) answer.logprobs = choice.logprobs;
  return answer;
}

/** A record's request: every field but `id`, with `model` filled in when it names none. */
function requestOf(record: Record<string, unknown>, model: string | undefined): Record<string, unknown> {
  // Copied key by key: an object rest and a spread cost more than the rest of the batch's own work on a request.
  const request: Record<string, unknown> = {};
  for (const key in record) if (key !== "id" && Object.hasOwn(record, key)) request[key] = record[key];
  if (request.model === undefined && model !== undefined) request.model = model;
  return request;
}
