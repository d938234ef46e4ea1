/** Model ids known to serve FIM completions (non-thinking mode only). Other strings are still accepted. */
export const MODELS = ["deepseek-v4-flash", "deepseek-v4-pro"] as const;

/** The model the CLI uses when `--model` is not given. */
export const DEFAULT_MODEL = "deepseek-v4-flash";
