import type { FimRequest } from "@infill/core";
import { classify } from "@infill/core/failure";
import { type FailureSubject, missingKeyNotice, noticeFor } from "./failure-notice.js";
import type { FailureKind } from "./failure-policy.js";
import type { ClosableUpstream } from "./upstreams.js";

/** The answer to `infill/probe`: which provider the server uses, where, and whether a tiny request succeeds. */
export interface ProbeResult {
  /** The `provider` setting: `deepseek`, `sim`, `ollama`… */
  provider: string;
  /** How people call it: `DeepSeek`, `Ollama`, `llama.cpp`… */
  label: string;
  /** The base URL requests go to (normalised), or the configured one when the client refused it; null for none. */
  baseUrl: string | null;
  /** The model requests use; null when the provider's server picks it (llama.cpp). */
  model: string | null;
  /** Whether the tiny request got a completion. */
  ok: boolean;
  /** How long it took, ms; null when it was not sent. */
  latencyMs: number | null;
  /** What went wrong and what to do, when not ok; the key is never in it. */
  error: string | null;
  /** What kind of failure it was, when not ok (`auth`, `no-key`, `unavailable`…; see failure-policy.ts). */
  kind: FailureKind | null;
  /** The environment variable the key comes from, when the provider takes one. */
  apiKeyEnv: string | null;
}

/** The tiny request: one token after a line any code model completes. Costs next to nothing on a paid API. */
export const PROBE_REQUEST: FimRequest = {
  prompt: "def add(a, b):\n    return ",
  suffix: "\n",
  max_tokens: 1,
  temperature: 0,
};

/**
 * Sends the tiny request through the upstream in use, bypassing the health tracker's backoff (it is an explicit
 * check), and reports what happened in words the user can act on.
 *
 * @param upstream undefined when there is none (no key). Its client's `timeoutMs` bounds the request.
 * @param configuredBaseUrl the `baseUrl` setting, shown when the client cannot be created.
 */
export async function probe(
  upstream: ClosableUpstream | undefined,
  subject: FailureSubject,
  configuredBaseUrl: string | undefined,
): Promise<ProbeResult> {
  const result: ProbeResult = {
    provider: subject.provider,
    label: subject.label,
    baseUrl: configuredBaseUrl ?? null,
    model: subject.model ?? null,
    ok: false,
    latencyMs: null,
    error: null,
    kind: null,
    apiKeyEnv: subject.apiKeyEnv ?? null,
  };
  if (upstream === undefined) {
    const notice = missingKeyNotice(subject);
    return { ...result, error: notice.message, kind: notice.kind };
  }
  const started = performance.now();
  try {
    const target = await upstream.target();
    result.baseUrl = target.baseURL;
    result.model = target.model ?? null;
    await upstream.complete(PROBE_REQUEST, { signal: new AbortController().signal });
    return { ...result, ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    const failure = classify(error);
    const notice = failure && noticeFor(failure, { ...subject, model: result.model ?? undefined });
    const text = notice?.message ?? (error instanceof Error ? error.message : String(error));
    return {
      ...result,
      latencyMs: Math.round(performance.now() - started),
      error: text,
      kind: notice?.kind ?? null,
    };
  }
}
