import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { waitUntil } from "./poll.js";
import { shellQuote } from "./sandbox.js";

const run = promisify(execFile);

/** A terminal program in a private tmux server of a fixed size, driven by keys and read from its screen. */
export class Tmux {
  readonly #base: string[];

  private constructor(
    readonly bin: string,
    socket: string,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.#base = ["-L", socket, "-f", "/dev/null"];
  }

  /** Start `command` (argv) in `cwd` on a `width`×`height` screen. The tmux server gets exactly `env`. */
  static async start(options: {
    bin: string;
    socket: string;
    env: NodeJS.ProcessEnv;
    cwd: string;
    command: string[];
    width?: number;
    height?: number;
  }): Promise<Tmux> {
    const tmux = new Tmux(join(options.bin, "tmux"), options.socket, options.env);
    const command = options.command.map(shellQuote).join(" ");
    await tmux.#tmux(
      "new-session",
      "-d",
      "-s",
      "main",
      "-x",
      `${options.width ?? 120}`,
      "-y",
      `${options.height ?? 30}`,
      "-c",
      options.cwd,
      command,
    );
    return tmux;
  }

  async #tmux(...args: string[]): Promise<string> {
    const { stdout } = await run(this.bin, [...this.#base, ...args], { env: this.env, timeout: 10_000 });
    return stdout;
  }

  /** The screen as text, one line per row. */
  screen(): Promise<string> {
    return this.#tmux("capture-pane", "-p", "-t", "main");
  }

  /** Send keys by tmux name (`Escape`, `Enter`, `Tab`, `C-x`), each as one key. */
  async keys(...keys: string[]): Promise<void> {
    await this.#tmux("send-keys", "-t", "main", ...keys);
  }

  /** Type text literally. */
  async type(text: string): Promise<void> {
    await this.#tmux("send-keys", "-t", "main", "-l", text);
  }

  /**
   * Poll the screen until `check` accepts it, and return that screen. On timeout, fail with `what`, the last
   * screen and `context()` (e.g. a log tail).
   */
  async waitFor(
    what: string,
    check: (screen: string) => boolean,
    options: { timeoutMs?: number; context?: () => Promise<string> } = {},
  ): Promise<string> {
    let screen = "";
    return waitUntil(
      what,
      async () => {
        screen = await this.screen();
        return check(screen) ? screen : undefined;
      },
      {
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        describe: async () =>
          `the screen was:\n${screen}${options.context ? `\n${await options.context()}` : ""}`,
      },
    );
  }

  /** Stop the tmux server and everything running in it. */
  async kill(): Promise<void> {
    await this.#tmux("kill-server").catch(() => {});
  }
}
