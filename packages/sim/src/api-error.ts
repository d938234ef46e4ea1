import { STATUS_CODES } from "node:http";

/** DeepSeek's (OpenAI-style) error body. `param` is always null and `code` always `invalid_request_error` in observed bodies. */
export interface ApiErrorBody {
  error: {
    /** What went wrong, for people. */
    message: string;
    /** `invalid_request_error`, `authentication_error`, `unknown_error`… */
    type: string;
    param: null;
    code: string;
  };
}

// Messages are DeepSeek's error-code names (api-docs quick_start/error_codes); types are the
// observed ones where known (401 authentication_error, 402 unknown_error), OpenAI's otherwise.
const BY_STATUS: Record<number, { message: string; type: string }> = {
  400: { message: "Invalid Format", type: "invalid_request_error" },
  401: { message: "Authentication Fails (no such user)", type: "authentication_error" },
  402: { message: "Insufficient Balance", type: "unknown_error" },
  404: { message: "Not Found", type: "invalid_request_error" },
  422: { message: "Invalid Parameters", type: "invalid_request_error" },
  429: { message: "Rate Limit Reached", type: "rate_limit_error" },
  500: { message: "Server Error", type: "server_error" },
  503: { message: "Server Overloaded", type: "server_error" },
};

/**
 * The error body DeepSeek sends for `status`.
 *
 * @param status - HTTP status
 * @param message - overrides the status's standard message (e.g. a validation message)
 */
export function apiErrorBody(status: number, message?: string): ApiErrorBody {
  const known = BY_STATUS[status];
  return {
    error: {
      message: message ?? known?.message ?? STATUS_CODES[status] ?? "Error",
      type: known?.type ?? (status === 400 || status === 422 ? "invalid_request_error" : "unknown_error"),
      param: null,
      code: "invalid_request_error",
    },
  };
}

/**
 * The key as DeepSeek shows it in a 401 message: `****` and its last four characters. Keys shorter
 * than eight characters show no characters at all, so a short key is never revealed whole.
 */
export function maskKey(key: string): string {
  return key.length >= 8 ? `****${key.slice(-4)}` : "****";
}
