import { ValidationError } from "./errors.js";

/** DeepSeek's beta base address; FIM completions are only served under `/beta`. */
export const DEFAULT_BASE_URL = "https://api.deepseek.com/beta";

/**
 * Turns what a user may type into the base the client appends `/completions` to, without a trailing slash.
 *
 * - `https://api.deepseek.com` (no path) → `https://api.deepseek.com/beta`, as DeepSeek's docs require;
 * - `…/beta` or `…/beta/` → `…/beta` (never doubled);
 * - on `api.deepseek.com` any other path (`/v1`…) is refused: DeepSeek serves FIM only under `/beta`;
 * - on other hosts any other path is kept (a proxy, a local sim, an OpenAI-compatible server under `/v1`);
 * - an endpoint (`…/completions`, `…/chat/completions`) is refused, naming the base to pass instead.
 *
 * @param name what to call the value in messages, e.g. `INFILL_BASE_URL` when it came from there. Default
 *   `baseURL`.
 * @throws {ValidationError} with `field: "baseURL"` for a malformed, non-http(s) or endpoint URL, or a path
 *   DeepSeek does not serve FIM under. A malformed value is not quoted: it may be a key in the wrong variable.
 */
export function normalizeBaseURL(url: string, name = "baseURL"): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // No cause either: URL's TypeError keeps the value as `input`.
    throw new ValidationError(
      "baseURL",
      `${name} is not a valid URL; pass the API base as an http(s) URL, e.g. ${DEFAULT_BASE_URL}`,
    );
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ValidationError("baseURL", `${name} must use https (or http), not ${parsed.protocol}`);
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    throw new ValidationError("baseURL", `${name} must not have a query or a fragment`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new ValidationError(
      "baseURL",
      `${name} must not contain credentials; pass the key as apiKey (or DEEPSEEK_API_KEY)`,
    );
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  const origin = parsed.origin;
  const deepseek = parsed.hostname === "api.deepseek.com";
  const endpoint = /\/(chat\/)?completions$/.exec(path);
  if (endpoint) {
    // DeepSeek serves FIM only under /beta, whatever chat path was pasted (/v1/chat/completions…).
    const base = deepseek ? "/beta" : path.slice(0, endpoint.index) || "/beta";
    throw new ValidationError(
      "baseURL",
      `${name} must be the API base, not an endpoint: pass ${origin}${base}, not ${origin}${path} ` +
        "(the client appends /completions)",
    );
  }
  if (deepseek && path !== "" && path !== "/beta") {
    // FIM is a beta feature: requests under any other path there cannot be FIM completions.
    throw new ValidationError(
      "baseURL",
      `${name} has a path DeepSeek serves no FIM under (only /beta): pass ${DEFAULT_BASE_URL}, ` +
        `not ${origin}${path}`,
    );
  }
  return origin + (path === "" ? "/beta" : path);
}

/**
 * Whether a URL's host is the local machine: `localhost`, 127.0.0.0/8 or `::1`. Plain http is safe only there.
 * `hostname` is as `URL` gives it (lower-case, IPv4 normalised, IPv6 in brackets).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Refuses plain http to another machine: it would send the API key and the user's code in the clear.
 *
 * @throws {ValidationError} with `field: "baseURL"`, saying how to opt in.
 */
export function assertSecureBaseURL(base: string, allowInsecureHttp: boolean): void {
  const url = new URL(base);
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ValidationError(
      "baseURL",
      `refusing plain http to ${url.host}: the API key and your code would travel unencrypted. ` +
        "Use https, or opt in with allowInsecureHttp: true (CLI: --allow-insecure-http)",
    );
  }
}
