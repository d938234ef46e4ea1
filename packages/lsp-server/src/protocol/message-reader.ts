import {
  AbstractMessageReader,
  type DataCallback,
  type Disposable,
  type Message,
  type MessageReader,
} from "vscode-languageserver/node";

const HEADER_END = Buffer.from("\r\n\r\n", "ascii");
const EMPTY = Buffer.alloc(0);
/** A length header anywhere in a header block: stray bytes before it (a frame cut short) do not hide it. */
const CONTENT_LENGTH = /content-length[ \t]*:([^\r\n]*)/gi;
const CHARSET = /charset\s*=\s*"?([^";\s]+)/i;

/**
 * Reads JSON-RPC messages framed by `Content-Length` headers from a stream, and keeps reading whatever comes in
 * between. vscode-jsonrpc's reader stops at a header block without a length (until more bytes arrive, so a good
 * request written right after it waits for the next write) and loses every message after bytes that are not a
 * frame; this one reports the bad frame and goes on with the next: a header block without a usable length is
 * dropped, one whose length comes after stray bytes (`garbageContent-Length: 42`) is read from the length on, and a
 * body that is not a JSON object is dropped. Messages are delivered in order, each as soon as its body is complete,
 * without the promise hops of vscode-jsonrpc's decoders.
 */
export class FramedMessageReader extends AbstractMessageReader implements MessageReader {
  /** The bytes read and not consumed yet, from the start of a header block or of the body being read. */
  #buffer: Buffer = EMPTY;
  /**
   * Chunks that arrived after `#buffer` while a body is incomplete, joined to it once it is: a 5 MB `didOpen`
   * comes in 64 KB chunks, and joining each on arrival copied about 200 MB (the sum of the growing prefixes).
   */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The length of the body being read, or -1 while reading a header block. */
  #length = -1;
  /** The body being read is in a charset other than UTF-8: skip it whole, so the next message starts right. */
  #skip = false;
  #callback: DataCallback | undefined;

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.#callback = callback;
    const onData = (data: Buffer | string) =>
      this.#onData(typeof data === "string" ? Buffer.from(data) : data);
    const onError = (error: Error) => this.fireError(error);
    const onClose = () => this.fireClose();
    this.input.on("data", onData);
    this.input.on("error", onError);
    this.input.on("close", onClose);
    return {
      dispose: () => {
        this.input.off("data", onData);
        this.input.off("error", onError);
        this.input.off("close", onClose);
      },
    };
  }

  #onData(data: Buffer): void {
    if (this.#length !== -1 && this.#buffer.length + this.#pendingBytes + data.length < this.#length) {
      this.#pending.push(data);
      this.#pendingBytes += data.length;
      return;
    }
    this.#buffer =
      this.#buffer.length === 0 && this.#pendingBytes === 0
        ? data
        : Buffer.concat([this.#buffer, ...this.#pending, data]);
    this.#pending = [];
    this.#pendingBytes = 0;
    for (;;) {
      if (this.#length === -1) {
        const end = this.#buffer.indexOf(HEADER_END);
        if (end === -1) return;
        const header = this.#buffer.subarray(0, end).toString("latin1");
        this.#buffer = this.#rest(end + HEADER_END.length);
        const problem = this.#readHeader(header);
        if (problem) {
          this.fireError(new Error(`dropped a message: ${problem}`));
          continue;
        }
      }
      if (this.#buffer.length < this.#length) return;
      const body = this.#buffer.subarray(0, this.#length);
      this.#buffer = this.#rest(this.#length);
      this.#length = -1;
      this.#deliver(body);
    }
  }

  /**
   * The buffer from `offset` on. A view keeps its whole parent alive (a 5 MB message until the next one comes),
   * so nothing left is the empty buffer, not a view.
   */
  #rest(offset: number): Buffer {
    return offset >= this.#buffer.length ? EMPTY : this.#buffer.subarray(offset);
  }

  /** Takes the body length from a header block; returns what is wrong with it instead, if anything. */
  #readHeader(header: string): string | undefined {
    let value: string | undefined;
    for (const match of header.matchAll(CONTENT_LENGTH)) value = match[1];
    if (value === undefined) return "its header has no Content-Length";
    const length = Number(value.trim());
    if (!Number.isSafeInteger(length) || length < 0)
      return `its Content-Length is not a length: ${value.trim()}`;
    const charset = CHARSET.exec(header)?.[1]?.toLowerCase();
    this.#length = length;
    this.#skip = charset !== undefined && charset !== "utf-8" && charset !== "utf8";
    return undefined;
  }

  #deliver(body: Buffer): void {
    if (this.#skip) {
      this.#skip = false;
      this.fireError(new Error("dropped a message: only utf-8 is understood"));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(body.toString("utf8"));
    } catch (error) {
      this.fireError(new Error(`dropped a message: its body is not JSON (${String(error)})`));
      return;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      this.fireError(new Error("dropped a message: its body is not a JSON object"));
      return;
    }
    try {
      this.#callback?.(message as Message);
    } catch (error) {
      // vscode-jsonrpc throws on some shapes (a response whose id is null); the messages after it still count.
      this.fireError(new Error(`dropped a message: ${String(error)}`));
    }
  }
}
