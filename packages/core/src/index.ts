export { DEFAULT_BASE_URL, normalizeBaseURL } from "./base-url.js";
export type { LimitChange } from "./batch/aimd.js";
export type { BatchOptions } from "./batch/batch-options.js";
export type { BatchAnswer, BatchFailure, BatchId, BatchRequest, BatchResult } from "./batch/batch-record.js";
export type { BatchProgress } from "./batch/batch-tally.js";
export type { BatchPause } from "./batch/rate-limit-decision.js";
export { type BatchEvents, BatchRun, runBatch } from "./batch/run-batch.js";
export { FimClient, type FimClientOptions, type RequestOptions } from "./client.js";
export { type ContextEffect, contextEffect, formatContextEffect } from "./context-effect.js";
export {
  EDIT_MAX_TOKENS,
  type EditMessage,
  EditMessageSchema,
  type EditRequest,
  EditRequestSchema,
  type EditShape,
} from "./edit/edit-request.js";
export type { EditChunk, EditCompletion } from "./edit/edit-wire.js";
export { EditClient } from "./edit-client.js";
export {
  AbortError,
  ApiError,
  type ApiErrorBody,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  type ErrorReason,
  FimError,
  InsufficientBalanceError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "./errors.js";
export { classify, FAILURE_KINDS, type Failure, type FailureKind } from "./failure.js";
export { type Estimate, meanOf, proportionDifference, wilson } from "./interval.js";
export { DEFAULT_MODEL, MODELS } from "./models.js";
export { ProviderClient, type ProviderClientOptions } from "./provider-client.js";
export {
  type ContextSnippet,
  type FimContext,
  FimContextSchema,
  type FimRequest,
  FimRequestSchema,
} from "./providers/fim-request.js";
export {
  CODESTRAL_DEFAULT_MODEL,
  isProviderName,
  OLLAMA_DEFAULT_MODEL,
  PROVIDER_INFO,
  PROVIDER_NAMES,
  type ProviderInfo,
  type ProviderName,
} from "./providers/info.js";
export { OLLAMA_DEFAULT_KEEP_ALIVE } from "./providers/ollama.js";
export type { FimChunk, FimCompletion } from "./providers/provider.js";
export {
  type CompletionChoice,
  CompletionChoiceSchema,
  type CompletionChunk,
  CompletionChunkSchema,
  type CompletionRequest,
  CompletionRequestSchema,
  type CompletionResponse,
  CompletionResponseSchema,
  FINISH_REASONS,
  type FinishReason,
  FinishReasonSchema,
  type Logprobs,
  LogprobsSchema,
  type Usage,
  UsageSchema,
} from "./schemas.js";
export { sparkline } from "./sparkline.js";
// Prices, usage totals and the usage log's writer: the same as `@infill/core/usage`.
export * from "./usage.js";
export { type UsageDimension, usageGroups } from "./usage-breakdown.js";
export { readUsageLog, summarizeUsage, type UsageFigures, type UsageSummary } from "./usage-report.js";
export { VERSION } from "./version.js";
