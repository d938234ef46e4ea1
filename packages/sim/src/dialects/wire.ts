import type { z } from "zod";
import type { Answer, SimCompletionRequest } from "./dialect.js";

/** One server-sent event carrying `data` as JSON. */
export function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** `stop` as a list. */
export function stopList(stop: string | string[] | null | undefined): string[] {
  if (stop == null) return [];
  return typeof stop === "string" ? [stop] : stop;
}

/** The first problem zod found: the field's dotted path and zod's message. */
export function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  return {
    field: issue?.path.map(String).join(".") || "body",
    message: issue?.message ?? "invalid value",
  };
}

/** What a JSON value is, in Go's words (`number`, `string`, `object`…), for Ollama's decoder errors. */
export function goKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/** The fields DeepSeek, OpenAI-compatible hosts and Codestral name alike, once a dialect has checked them. */
export interface OpenAIShapedRequest {
  model: string;
  prompt: string;
  suffix?: string | null | undefined;
  max_tokens?: number | null | undefined;
  stop?: string | string[] | null | undefined;
  stream?: boolean | null | undefined;
  temperature?: number | null | undefined;
}

/** What every request names; the rest has defaults. */
export type RequestFields = Pick<SimCompletionRequest, "model" | "prompt" | "maxTokens" | "stop" | "stream"> &
  Partial<SimCompletionRequest>;

/**
 * A request as the simulator's model reads it, from what the dialect read: no suffix, usage, echo or logprobs and
 * temperature 0 unless given.
 */
export function simRequest(fields: RequestFields): SimCompletionRequest {
  return { suffix: "", includeUsage: false, echo: false, logprobs: null, temperature: 0, ...fields };
}

/** A request in those names as the simulator's model reads it. */
export function fromOpenAIShape(
  request: OpenAIShapedRequest,
  defaultMaxTokens: number,
  extras: Partial<Pick<SimCompletionRequest, "includeUsage" | "echo" | "logprobs">> = {},
): SimCompletionRequest {
  return {
    model: request.model,
    prompt: request.prompt,
    suffix: request.suffix ?? "",
    maxTokens: request.max_tokens ?? defaultMaxTokens,
    stop: stopList(request.stop),
    stream: request.stream === true,
    includeUsage: extras.includeUsage ?? false,
    echo: extras.echo ?? false,
    logprobs: extras.logprobs ?? null,
    temperature: request.temperature ?? 0,
  };
}

/** OpenAI's `usage` (Codestral's too): prompt, completion and total tokens, no cache fields. */
export function openAIUsage(answer: Answer) {
  const completion = answer.generation.tokens.length;
  return {
    prompt_tokens: answer.promptTokens,
    completion_tokens: completion,
    total_tokens: answer.promptTokens + completion,
  };
}
