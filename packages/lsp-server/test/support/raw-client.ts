import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built server. */
export const BIN = fileURLToPath(new URL("../../dist/infill-lsp.js", import.meta.url));

/** A raw stdio client: frames JSON-RPC by hand so it can also send broken frames. */
export class RawClient {
  readonly child: ChildProcessWithoutNullStreams;
  #buffer = Buffer.alloc(0);
  #messages: Array<Record<string, unknown>> = [];
  #waiters = new Set<() => void>();
  stderr = "";

  constructor(env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [BIN, "--stdio"], {
      env: { PATH: process.env.PATH, DEEPSEEK_API_KEY: "", ...env },
    });
    this.child.stderr.on("data", (data: Buffer) => {
      this.stderr += data.toString();
    });
    this.child.stdout.on("data", (data: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, data]);
      for (;;) {
        const header = this.#buffer.indexOf("\r\n\r\n");
        if (header === -1) break;
        const length = Number(
          /Content-Length: (\d+)/i.exec(this.#buffer.subarray(0, header).toString())?.[1],
        );
        if (this.#buffer.length < header + 4 + length) break;
        this.#messages.push(JSON.parse(this.#buffer.subarray(header + 4, header + 4 + length).toString()));
        this.#buffer = this.#buffer.subarray(header + 4 + length);
      }
      for (const waiter of this.#waiters) waiter();
    });
  }

  /** Every message the server sent so far. */
  get received(): ReadonlyArray<Record<string, unknown>> {
    return this.#messages;
  }

  /** Write bytes as they are, framed or not. */
  write(bytes: string | Buffer): void {
    this.child.stdin.write(bytes);
  }

  frame(body: string): void {
    this.child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  send(message: Record<string, unknown>): void {
    this.frame(JSON.stringify({ jsonrpc: "2.0", ...message }));
  }

  response(id: number | string, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.#messages.find((m) => m.id === id && !("method" in m));
        if (!found) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`no response to request ${id}; stderr: ${this.stderr}`));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }
}
