import { PROVIDER_INFO } from "@infill/core/provider-info";
import type { Settings } from "../settings/settings.js";
import { type EditConfig, editConfig } from "./edit-config.js";
import { type FailureNotice, type FailureSubject, missingKeyNotice } from "./failure-notice.js";
import { UpstreamHealth } from "./health.js";
import { type ClosableEditUpstream, providerEditUpstream, simEditUpstream } from "./upstreams.js";

/** Collaborators of an {@link EditSession}. */
export interface EditSessionOptions {
  settings: () => Settings;
  /** A provider's key and its variable (the provider session's, which redacts every key it reads). */
  keyOf: (
    provider: Settings["provider"],
    apiKeyEnv: string | undefined,
  ) => { variable: string | undefined; key: string | undefined };
  /** Sent as `User-Agent`. */
  userAgent: string;
  /** Tell the user about a failure or a configuration that cannot work; the health tracker told each kind once. */
  tell: (notice: FailureNotice) => void;
  /** The health tracker's clock, ms. Default `Date.now`. */
  now?: () => number;
}

/** Where next-edit requests go, and the format they are asked in. */
export interface EditTargetConfig {
  readonly upstream: ClosableEditUpstream;
  readonly config: EditConfig;
}

/**
 * The next-edit provider, beside the completion one (`ProviderSession`): its client through `EditClient`, created on
 * first use once per provider, format, model, base URL, key variable and timeout (the embedded sim started
 * in-process for `sim`), and its own health, so that a next-edit model that is down holds back next edits only.
 * What cannot work (no key, no format for a local model) is told once, naming the setting, until the settings change.
 */
export class EditSession {
  readonly health: UpstreamHealth;
  #current: { key: string; value: EditTargetConfig | undefined } | undefined;

  constructor(private readonly options: EditSessionOptions) {
    this.health = new UpstreamHealth(options.now ?? Date.now, () => this.subject());
  }

  /** The next-edit provider, as notices name it. */
  subject(): FailureSubject {
    const settings = this.options.settings();
    const resolved = editConfig(settings);
    const provider =
      "problem" in resolved ? (settings.nextEdit.provider ?? settings.provider) : resolved.provider;
    const common = { feature: "next edits", settings: "nextEdit.", endpoint: "next edits" };
    if (provider === "sim" || "problem" in resolved) {
      return {
        provider,
        label: provider === "sim" ? "the embedded simulator" : provider,
        model: undefined,
        apiKeyEnv: undefined,
        ...common,
      };
    }
    const info = PROVIDER_INFO[resolved.provider as Exclude<typeof resolved.provider, "sim">];
    return {
      provider,
      label: info.label,
      model: resolved.model ?? info.defaultModel,
      apiKeyEnv: resolved.apiKeyEnv ?? info.apiKeyEnv,
      ...common,
    };
  }

  /**
   * The upstream and format for the current settings; undefined when next edits cannot go upstream (a missing key
   * or format: the user is told once, and the health tracker holds requests back until the settings change).
   */
  target(): EditTargetConfig | undefined {
    const settings = this.options.settings();
    const resolved = editConfig(settings);
    const cacheKey = JSON.stringify([resolved, settings.allowInsecureHttp, settings.timeoutMs]);
    if (this.#current?.key === cacheKey) return this.#current.value;
    void this.#current?.value?.upstream.close();
    this.#current = { key: cacheKey, value: this.#create(settings, resolved) };
    return this.#current.value;
  }

  /** The settings changed: a new provider, key, format or model deserves a fresh try. */
  settingsChanged(): void {
    this.health.reset();
  }

  async close(): Promise<void> {
    await this.#current?.value?.upstream.close();
    this.#current = undefined;
  }

  #create(settings: Settings, resolved: EditConfig | { problem: string }): EditTargetConfig | undefined {
    if ("problem" in resolved) {
      this.#block({ kind: "invalid-request", severity: "error", message: resolved.problem });
      return undefined;
    }
    const { timeoutMs, allowInsecureHttp } = settings;
    if (resolved.provider === "sim") return { upstream: simEditUpstream(timeoutMs), config: resolved };
    const { variable, key } = this.options.keyOf(resolved.provider, resolved.apiKeyEnv);
    if (!key && variable !== undefined) {
      this.#block(missingKeyNotice(this.subject()));
      return undefined;
    }
    const upstream = providerEditUpstream({
      provider: resolved.provider,
      // Always given, so that the client never reads the process's environment behind the server's own.
      apiKey: key ?? "",
      baseURL: resolved.baseUrl ?? PROVIDER_INFO[resolved.provider].defaultBaseURL,
      timeoutMs,
      maxRetries: 1,
      userAgent: this.options.userAgent,
      allowInsecureHttp,
      ...(resolved.model ? { model: resolved.model } : {}),
    });
    return { upstream, config: resolved };
  }

  #block(notice: FailureNotice): void {
    const told = this.health.block(notice);
    if (told) this.options.tell(told);
  }
}
