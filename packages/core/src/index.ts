export { DEFAULT_BASE_URL, normalizeBaseURL } from "./base-url.js";
export { FimClient, type FimClientOptions, type RequestOptions } from "./client.js";
export {
  AbortError,
  ApiError,
  type ApiErrorBody,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  FimError,
  InsufficientBalanceError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
} from "./errors.js";
export { DEFAULT_MODEL, MODELS } from "./models.js";
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
export { VERSION } from "./version.js";
