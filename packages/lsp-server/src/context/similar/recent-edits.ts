/** Regions remembered at most, across documents. */
const MAX_REGIONS = 16;
/** An edit this close to a remembered region of the same document moves that region instead of adding one. */
const SAME_REGION_LINES = 10;
/** Lines kept on each side of an edited line when its document closes. */
const HALF_WINDOW = 10;

/** A recently edited region whose document is closed: its text as it was then. */
export interface ClosedRegion {
  readonly uri: string;
  readonly path: string;
  /** 0-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

interface Region {
  uri: string;
  path: string;
  line: number;
  closed?: ClosedRegion;
}

/**
 * Where the user edited last, across documents (what Cody's and Tabby's "recently edited" retrievers keep, like
 * llama.vim's ring of chunks): a small ring of regions, most recent last. An edit only records a line (cheap on
 * every keystroke); when a document closes, the text around its regions is kept so that it can still be offered
 * as similar code.
 */
export class RecentEdits {
  readonly #regions: Region[] = [];

  /** Record an edit at `line` of a document. */
  touch(uri: string, path: string, line: number): void {
    const at = this.#regions.findIndex(
      (region) => region.uri === uri && !region.closed && Math.abs(region.line - line) <= SAME_REGION_LINES,
    );
    if (at !== -1) this.#regions.splice(at, 1);
    this.#regions.push({ uri, path, line });
    if (this.#regions.length > MAX_REGIONS) this.#regions.shift();
  }

  /** A document closes: keep the text around each of its regions (`lineAt` gives undefined past the end). */
  snapshot(uri: string, lineAt: (line: number) => string | undefined): void {
    for (const region of this.#regions) {
      if (region.uri !== uri || region.closed) continue;
      const lines: string[] = [];
      const startLine = Math.max(0, region.line - HALF_WINDOW);
      for (let line = startLine; line <= region.line + HALF_WINDOW; line++) {
        const text = lineAt(line);
        if (text === undefined) break;
        lines.push(text);
      }
      if (lines.length === 0) continue;
      region.closed = {
        uri,
        path: region.path,
        startLine,
        endLine: startLine + lines.length - 1,
        text: lines.join("\n"),
      };
    }
    // Regions that had no text left are of no use.
    for (let i = this.#regions.length - 1; i >= 0; i--) {
      const region = this.#regions[i]!;
      if (region.uri === uri && !region.closed) this.#regions.splice(i, 1);
    }
  }

  /** The remembered regions of closed documents, most recent first. */
  closed(): ClosedRegion[] {
    const out: ClosedRegion[] = [];
    for (let i = this.#regions.length - 1; i >= 0; i--) {
      const closed = this.#regions[i]!.closed;
      if (closed) out.push(closed);
    }
    return out;
  }

  /** Paths of the files edited recently, most recent first, each once. */
  paths(): string[] {
    const out: string[] = [];
    for (let i = this.#regions.length - 1; i >= 0; i--) {
      const { path } = this.#regions[i]!;
      if (!out.includes(path)) out.push(path);
    }
    return out;
  }

  /** The document was opened again: its live text is used instead of old snapshots. */
  reopened(uri: string): void {
    this.forget(uri);
  }

  /** Forget every region of a document (one closed that may not be used as context keeps none). */
  forget(uri: string): void {
    for (let i = this.#regions.length - 1; i >= 0; i--)
      if (this.#regions[i]!.uri === uri) this.#regions.splice(i, 1);
  }
}
