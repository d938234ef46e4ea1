import { FimClient } from "../client.js";
import { DEFAULT_MODEL } from "../models.js";
import type { ProviderClient } from "../provider-client.js";
import type { FimRequest } from "../providers/fim-request.js";
import { serializeRequest } from "../request-body.js";
import type { CompletionRequest, Logprobs, Usage } from "../schemas.js";
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
 * What a batch needs of a client: its default model, the check complete() runs before any I/O, and complete()
 * itself with one shape of answer. FimClient takes DeepSeek's whole request (echo, logprobs, penalties, top_p…);
 * ProviderClient takes the portable FimRequest, for every provider.
 */
export interface BatchTarget {
  /** The model of requests that name none; undefined when the provider has no default (llama.cpp, OpenAI-compatible). */
  readonly defaultModel: string | undefined;
  /**
   * Checks a request (its `id` already taken out) as complete() will before sending it.
   * @throws {ValidationError} naming the first offending field.
   */
  check(request: Record<string, unknown>): void;
  /** Sends a request; complete() checks it first, as check() does. */
  complete(request: Record<string, unknown>, options: RequestOptions): Promise<TargetAnswer>;
}

/** The batch's view of a client. */
export function batchTarget(client: FimClient | ProviderClient): BatchTarget {
  if (client instanceof FimClient) {
    return {
      defaultModel: DEFAULT_MODEL,
      check(request) {
        serializeRequest(request as CompletionRequest, false);
      },
      async complete(request, options) {
        const response = await client.complete(request as CompletionRequest, options);
        const choice = response.choices[0];
        const answer: TargetAnswer = {
          text: choice?.text ?? "",
          finish_reason: choice?.finish_reason ?? null,
          usage: response.usage,
        };
        if (choice?.logprobs != null) answer.logprobs = choice.logprobs;
        return answer;
      },
    };
  }
  return {
    defaultModel: client.model,
    check(request) {
      client.check(request as FimRequest);
    },
    async complete(request, options) {
      const { text, finish_reason, usage } = await client.complete(request as FimRequest, options);
      return { text, finish_reason, usage };
    },
  };
}
