import { ValidationError } from "./errors.js";
import { DEEPSEEK_BASE_URL } from "./providers/info.js";

/** DeepSeek's beta base address; FIM completions are only served under `/beta`. */
export const DEFAULT_BASE_URL = DEEPSEEK_BASE_URL;

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
  const { origin, path, hostname } = parseBase(url, name, DEFAULT_BASE_URL);
  const deepseek = hostname === "api.deepseek.com";
  const endpoint = /\/(chat\/)?completions$/.exec(path);
  if (endpoint) {
    // DeepSeek serves FIM only under /beta, whatever chat path was pasted (/v1/chat/completions…).
    const base = deepseek ? "/beta" : path.slice(0, endpoint.index) || "/beta";
    throw notAnEndpoint(name, origin, base, path, "/completions");
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

/** How a provider's base URL is read (see normalizeProviderBaseURL). */
export interface BaseURLRules {
  /** The path the client appends to the base, e.g. `/api/generate`. */
  readonly endpoint: string;
  /** The path a bare host gets, e.g. `/v1`; `""` for none. */
  readonly bareHostPath: string;
  /** An example base for messages, e.g. `http://127.0.0.1:11434`. */
  readonly example: string;
  /** Extra checks of the parsed base (origin and path without trailing slash); throw a ValidationError. */
  readonly check?: (origin: string, path: string, name: string) => void;
}

// Endpoints people paste as a base: the provider's own and the other well-known ones. Longest first.
const ENDPOINTS = [
  "/chat/completions",
  "/fim/completions",
  "/completions",
  "/completion",
  "/api/generate",
  "/api/chat",
  "/infill",
];

/**
 * Reads a base URL for a provider other than DeepSeek: the common checks of normalizeBaseURL (a valid http(s) URL,
 * no query, fragment or credentials, never quoted), a bare host gets `rules.bareHostPath`, a trailing slash is
 * dropped, and an endpoint (the provider's, or another well-known one such as `/chat/completions`) is refused with
 * the base to pass instead.
 *
 * @param name what to call the value in messages (`baseURL`, `--base-url`, `INFILL_BASE_URL`).
 * @throws {ValidationError} with `field: "baseURL"`.
 */
export function normalizeProviderBaseURL(rules: BaseURLRules, url: string, name = "baseURL"): string {
  const { origin, path } = parseBase(url, name, rules.example);
  for (const endpoint of [rules.endpoint, ...ENDPOINTS]) {
    if (path.endsWith(endpoint)) {
      const base = path.slice(0, path.length - endpoint.length);
      throw notAnEndpoint(name, origin, base === "" ? rules.bareHostPath : base, path, rules.endpoint);
    }
  }
  rules.check?.(origin, path, name);
  return origin + (path === "" ? rules.bareHostPath : path);
}

/** The parts of a base URL, after the checks every provider shares. */
function parseBase(
  url: string,
  name: string,
  example: string,
): { origin: string; path: string; hostname: string } {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // No cause either: URL's TypeError keeps the value as `input`.
    throw new ValidationError(
      "baseURL",
      `${name} is not a valid URL; pass the API base as an http(s) URL, e.g. ${example}`,
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
      `${name} must not contain credentials; pass the key as apiKey (or in its environment variable)`,
    );
  }
  return { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, ""), hostname: parsed.hostname };
}

function notAnEndpoint(
  name: string,
  origin: string,
  base: string,
  path: string,
  appended: string,
): ValidationError {
  return new ValidationError(
    "baseURL",
    `${name} must be the API base, not an endpoint: pass ${origin}${base}, not ${origin}${path} ` +
      `(the client appends ${appended})`,
  );
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
      `refusing plain http to ${url.host}: your code (and the API key, if any) would travel unencrypted. ` +
        "Use https, or opt in with allowInsecureHttp: true (CLI: --allow-insecure-http)",
    );
  }
}
