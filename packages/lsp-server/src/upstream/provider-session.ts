import { PROVIDER_INFO } from "@infill/core/provider-info";
import { redactor } from "../log/logger.js";
import type { Settings } from "../settings/settings.js";
import { type FailureNotice, type FailureSubject, missingKeyNotice } from "./failure-notice.js";
import { UpstreamHealth } from "./health.js";
import { type ProbeResult, probe } from "./probe.js";
import { type ClosableUpstream, providerUpstream, simUpstream } from "./upstreams.js";

/** Collaborators of a {@link ProviderSession}. */
export interface ProviderSessionOptions {
  /** Where keys come from (`DEEPSEEK_API_KEY`, `CODESTRAL_API_KEY`, the `apiKeyEnv` setting's variable). */
  env: NodeJS.ProcessEnv;
  settings: () => Settings;
  /** Sent as `User-Agent`, e.g. `infill-lsp/1.2.3`. */
  userAgent: string;
  /** Tell the user about a failure; the health tracker has already made sure this kind was not told yet. */
  tell: (notice: FailureNotice) => void;
  /** The clock of the health tracker, ms. Default `Date.now`. */
  now?: () => number;
}

/** What `infill/probe` answers: the probe's result, and the last failure since the last success. */
export interface ProbeAnswer extends ProbeResult {
  /** The last failure of completions since the last success (told to the user or not), for `:checkhealth`. */
  lastFailure: { kind: string; message: string } | null;
}

/**
 * The provider in use, as the settings say: its key (read from the environment, never from settings, never shown:
 * every key read is redacted from whatever the server sends), its client (created once per provider, base URL,
 * model, key variable and timeout, and closed when they change), and its health (whether going upstream is worth
 * it, and what the user was told).
 */
export class ProviderSession {
  readonly health: UpstreamHealth;
  /** Removes every key the server has read from a text: a message about an earlier provider may still be on its way. */
  readonly redact: (text: string) => string;
  readonly #keys = new Set<string>();
  #upstream: { key: string; value: ClosableUpstream | undefined } | undefined;

  constructor(private readonly options: ProviderSessionOptions) {
    this.health = new UpstreamHealth(options.now ?? Date.now, () => this.subject());
    this.redact = redactor(() => [...this.#keys]);
  }

  /** The provider in use, as notices name it. */
  subject(): FailureSubject {
    const settings = this.options.settings();
    if (settings.provider === "sim") {
      return {
        provider: "sim",
        label: "the embedded simulator",
        model: settings.model,
        apiKeyEnv: undefined,
      };
    }
    const info = PROVIDER_INFO[settings.provider];
    return {
      provider: settings.provider,
      label: info.label,
      model: settings.model ?? info.defaultModel,
      apiKeyEnv: settings.apiKeyEnv ?? info.apiKeyEnv,
    };
  }

  /** The model requests go to, as the usage figures name it: the setting, else the provider's default. */
  model(): string {
    const settings = this.options.settings();
    // The embedded simulator is asked as DeepSeek, with DeepSeek's default model.
    if (settings.provider === "sim") return PROVIDER_INFO.deepseek.defaultModel!;
    return (
      settings.model ?? PROVIDER_INFO[settings.provider].defaultModel ?? `(${settings.provider}'s own model)`
    );
  }

  /**
   * The client for the current settings; undefined when the provider takes a key and none is set (the user is told
   * once, by {@link checkKey}).
   */
  upstream(): ClosableUpstream | undefined {
    const settings = this.options.settings();
    const { provider, baseUrl, model, apiKeyEnv, allowInsecureHttp, timeoutMs } = settings;
    const cacheKey = JSON.stringify([provider, baseUrl, model, apiKeyEnv, allowInsecureHttp, timeoutMs]);
    if (this.#upstream?.key === cacheKey) return this.#upstream.value;
    void this.#upstream?.value?.close();
    let value: ClosableUpstream | undefined;
    if (provider === "sim") value = simUpstream(timeoutMs);
    else {
      const { variable, key } = this.#key(settings);
      if (key || variable === undefined) {
        value = providerUpstream({
          provider,
          // Always given, so the client never reads process.env behind the server's own environment.
          apiKey: key ?? "",
          timeoutMs,
          // Interactive: the next keystroke is the retry. One quick retry still covers a stale pooled socket.
          maxRetries: 1,
          userAgent: this.options.userAgent,
          allowInsecureHttp,
          ...(baseUrl ? { baseURL: baseUrl } : {}),
          ...(model ? { model } : {}),
        });
      }
    }
    this.#upstream = { key: cacheKey, value };
    return value;
  }

  /** Tell the user once, and hold completions back, when the provider takes a key and none is set. */
  checkKey(): void {
    const { variable, key } = this.#key(this.options.settings());
    if (variable === undefined || key) return;
    const notice = this.health.block(missingKeyNotice(this.subject()));
    if (notice) this.options.tell(notice);
  }

  /** The settings changed: a new key, model or base URL deserves a fresh try. */
  settingsChanged(): void {
    this.health.reset();
    this.checkKey();
  }

  /** Open the connection ahead of the first completion, when the provider has what it needs and it is wanted. */
  warm(): void {
    if (this.options.settings().preconnect && !this.health.isBlocked()) this.upstream()?.warm?.();
  }

  /**
   * Send a tiny request through the client in use, past any backoff (an explicit check). A success clears the
   * backoff, so completions resume at once.
   */
  async probe(): Promise<ProbeAnswer> {
    const last = this.health.last;
    const result = await probe(this.upstream(), this.subject(), this.options.settings().baseUrl);
    if (result.ok) this.health.success();
    return {
      ...result,
      error: result.error === null ? null : this.redact(result.error),
      lastFailure: last ? { kind: last.kind, message: this.redact(last.message) } : null,
    };
  }

  /** Close the client. */
  async close(): Promise<void> {
    await this.#upstream?.value?.close();
    this.#upstream = undefined;
  }

  /** The key of the provider in use and the variable it comes from; none for the sim or a keyless provider. */
  #key(settings: Settings): { variable: string | undefined; key: string | undefined } {
    return this.keyOf(settings.provider, settings.apiKeyEnv);
  }

  /**
   * A provider's key and the variable it comes from (`apiKeyEnv`, else the provider's): none for the sim or a keyless
   * provider. Every key read is redacted from whatever the server sends from then on.
   */
  keyOf(
    provider: Settings["provider"],
    apiKeyEnv: string | undefined,
  ): { variable: string | undefined; key: string | undefined } {
    if (provider === "sim") return { variable: undefined, key: undefined };
    const variable = apiKeyEnv ?? PROVIDER_INFO[provider].apiKeyEnv;
    const key = variable === undefined ? undefined : this.options.env[variable]?.trim() || undefined;
    if (key) this.#keys.add(key);
    return { variable, key };
  }
}
