import { AbstractMessageWriter, type Message, type MessageWriter } from "vscode-languageserver/node";

interface Pending {
  frame: Buffer;
  message: Message;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Writes JSON-RPC messages with as few `write()`s as it can: header and body in one buffer, and every message sent
 * during one turn of the event loop's work in one write. vscode-jsonrpc's stream writer writes the header and the
 * body separately (behind a semaphore and several promise hops), which costs the editor an extra wake-up per
 * message; a completion answer is latency the user feels, and a notification sent in the same turn (a log line, the
 * end of a progress report) would otherwise wake the editor once more. The batch is written once the microtasks of the turn have run
 * (`process.nextTick`), so no message waits for the next turn. Writes keep their order because a Node stream does.
 */
export class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  #errors = 0;
  #batch: Pending[] = [];

  constructor(private readonly output: NodeJS.WritableStream) {
    super();
    output.on("error", (error: Error) => this.fireError(error));
    output.on("close", () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.byteLength}\r\n\r\n`, "ascii"), body]);
    return new Promise((resolve, reject) => {
      if (this.#batch.length === 0) process.nextTick(() => this.#flush());
      this.#batch.push({ frame, message, resolve, reject });
    });
  }

  #flush(): void {
    const batch = this.#batch;
    this.#batch = [];
    const bytes = batch.length === 1 ? batch[0]!.frame : Buffer.concat(batch.map((pending) => pending.frame));
    this.output.write(bytes, (error) => {
      if (error) {
        for (const pending of batch) {
          this.#errors++;
          this.fireError(error, pending.message, this.#errors);
          pending.reject(error);
        }
      } else {
        this.#errors = 0;
        for (const pending of batch) pending.resolve();
      }
    });
  }

  end(): void {
    this.output.end();
  }
}
