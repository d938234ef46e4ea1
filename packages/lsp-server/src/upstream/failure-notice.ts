import type { Failure } from "@infill/core/failure";
import type { FailureKind } from "./failure-policy.js";

/** Who the notices are about: the provider in use, for its name and what to tell the user to do. */
export interface FailureSubject {
  /** `deepseek`, `ollama`, `llamacpp`, `codestral`, `openai-compatible`, `sim`. */
  provider: string;
  /** How people call it: `DeepSeek`, `Ollama`, `llama.cpp`… */
  label: string;
  /** The model requests use, when there is one. */
  model: string | undefined;
  /** The environment variable the key comes from, when the provider takes one. */
  apiKeyEnv: string | undefined;
  /** What the user gets from it, as notices name it. Default `completions`. */
  feature?: string;
  /** The prefix of the settings that configure it (`nextEdit.`). Default none: the top-level settings. */
  settings?: string;
  /** What its base URL must serve. Default `FIM completions`. */
  endpoint?: string;
}

/** The default subject: DeepSeek with its key variable. */
export const DEEPSEEK: FailureSubject = {
  provider: "deepseek",
  label: "DeepSeek",
  model: undefined,
  apiKeyEnv: "DEEPSEEK_API_KEY",
};

/** What to tell the user about a failure, and how. */
export interface FailureNotice {
  kind: FailureKind;
  severity: "error" | "warning";
  message: string;
}

/** What serves each local provider, for a connection that was refused. */
const LOCAL_SERVER: Readonly<Record<string, string>> = {
  ollama: "Is Ollama running (`ollama serve`)?",
  llamacpp: "Is llama-server running?",
};

/** The notice for a provider that needs a key whose variable is not set. */
export function missingKeyNotice(subject: FailureSubject): FailureNotice {
  const variable = subject.apiKeyEnv ?? "the key's variable";
  return {
    kind: "no-key",
    severity: "warning",
    message:
      `${noticePrefix(subject)}: ${variable} is not set, so there are no ${subject.feature ?? "completions"} from ${subject.label}. Set it in the ` +
      `environment that starts the editor (or set the "${subject.settings ?? ""}provider" setting to "sim" to try infill offline).`,
  };
}

/**
 * The words for a classified failure: they name the provider and say what to do. Messages never include the key:
 * core's errors are redacted when they are made, and nothing here adds it.
 */
export function noticeFor(failure: Failure, subject: FailureSubject = DEEPSEEK): FailureNotice {
  const { kind, message } = failure;
  const { label } = subject;
  const what = subject.feature ?? "completions";
  const prefix = subject.settings ?? "";
  const model = subject.model === undefined ? "the model" : `"${subject.model}"`;
  const notice = (severity: FailureNotice["severity"], text: string): FailureNotice => ({
    kind,
    severity,
    message: `${noticePrefix(subject)}: ${text}`,
  });
  switch (kind) {
    case "auth":
      return notice(
        "error",
        `${label} rejected the API key (${message}). Set a valid ${subject.apiKeyEnv ?? "key (see the apiKeyEnv setting)"} and restart the server.`,
      );
    case "balance":
      return notice(
        "error",
        subject.provider === "deepseek"
          ? `the DeepSeek account has no balance left (402). Top it up at platform.deepseek.com; ${what} resume by themselves.`
          : `${label} says payment is required (${message}); ${what} resume by themselves once it is settled.`,
      );
    case "rate-limit":
      return notice("warning", `${label} is rate limiting requests (429); backing off.`);
    case "model-not-found":
      // Ollama: the user pulls it, and completions resume by themselves; elsewhere the setting is wrong.
      return subject.provider === "ollama"
        ? notice(
            "error",
            `Ollama has no model ${model} (${message}). Run \`ollama pull ${subject.model ?? "<model>"}\`; ${what} resume by themselves.`,
          )
        : notice(
            "error",
            `${label} does not know ${model} (${message}). Check the ${prefix}model setting${subject.provider === "deepseek" && !prefix ? " (or INFILL_MODEL)" : ""}; ${what} are off until the settings change.`,
          );
    case "fim-unsupported":
      return notice("error", fimUnsupported(subject, model, message));
    case "no-endpoint":
      return notice(
        "error",
        `the base URL serves no ${subject.endpoint ?? "FIM completions"} (${message}). Check the ${prefix}baseUrl setting${prefix ? "" : " (or INFILL_BASE_URL)"}; ${what} are off until the settings change.`,
      );
    case "bad-request":
      // Often one request's content or position, not the setup: later requests still go, with backoff.
      return notice(
        "warning",
        `${label} refused a request (${message}). It may be this request only; ${what} go on, backing off while it happens.`,
      );
    case "invalid-request":
      // The client refused the request or its own options (a plain-http baseUrl, a key it cannot send).
      return notice("error", `${message}. Check the settings and the environment.`);
    case "unavailable": {
      const start = failure.refused ? LOCAL_SERVER[subject.provider] : undefined;
      return notice(
        "warning",
        `${label} is unavailable (${message}); retrying with backoff.${start ? ` ${start}` : ""}`,
      );
    }
  }
}

/** How notices start: `infill`, or `infill (next edits)` for another feature than completions. */
function noticePrefix(subject: FailureSubject): string {
  return subject.feature ? `infill (${subject.feature})` : "infill";
}

/** What to say when the provider cannot fill in the middle with this model. */
function fimUnsupported(subject: FailureSubject, model: string, message: string): string {
  switch (subject.provider) {
    case "ollama":
      return `the Ollama model ${model} cannot fill in the middle (${message}). Set the model setting to one whose template takes a suffix, e.g. qwen2.5-coder:1.5b-base.`;
    case "llamacpp":
      return `llama.cpp's model has no fill-in-the-middle tokens (${message}). Start llama-server with a FIM-capable model, e.g. Qwen2.5-Coder.`;
    default:
      return `${subject.label} cannot fill in the middle with ${model} (${message}). Use a host and model that take a suffix.`;
  }
}
