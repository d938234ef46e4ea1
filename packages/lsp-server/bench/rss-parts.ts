// What a process's resident memory is made of, by kind of mapping (/proc/<pid>/smaps, Linux): the part a heap
// snapshot cannot see (the binary's pages, malloc's arenas, WebAssembly memories, compiled code) beside the rest.
import { readFileSync } from "node:fs";

/** Resident MB by kind of mapping. */
export interface RssParts {
  /** Pages of the node binary and shared libraries (code and read-only data it touched; shared, clean). */
  binary: number;
  /** glibc malloc: the main arena (`[heap]`) and the 64 MB-aligned arenas of other threads (V8's compiler threads). */
  malloc: number;
  /** WebAssembly memories (tree-sitter's runtime: grammars' tables, trees, parser stacks, compiled queries). */
  wasm: number;
  /** Anonymous executable mappings: V8's generated code, JavaScript's and WebAssembly's. */
  code: number;
  /** Every other anonymous mapping: V8's heap pages first, then large malloc blocks and thread stacks. */
  other: number;
}

interface Mapping {
  start: bigint;
  end: bigint;
  perm: string;
  name: string;
  rss: number;
}

const ARENA = 64n * 1024n * 1024n;
const WASM_RESERVATION = 1n << 32n;

function mappings(pid: number | "self"): Mapping[] {
  const out: Mapping[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      out.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perm: head[3]!,
        name: head[4]!,
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && out.length > 0) out.at(-1)!.rss = Number(rss[1]) / 1024;
  }
  return out;
}

/** The resident memory of process `pid` by kind of mapping, in MB. */
export function rssParts(pid: number | "self"): RssParts {
  const parts: RssParts = { binary: 0, malloc: 0, wasm: 0, code: 0, other: 0 };
  const all = mappings(pid);
  for (const [i, m] of all.entries()) {
    const next = all[i + 1];
    // A mapping followed by the rest of its reservation (no access), contiguous.
    const reserved =
      next && next.start === m.end && next.perm === "---p" ? next.end - m.start : m.end - m.start;
    if (m.name === "[heap]") parts.malloc += m.rss;
    else if (m.name.startsWith("/")) parts.binary += m.rss;
    else if (m.perm.includes("x")) parts.code += m.rss;
    // V8 reserves a WebAssembly memory's whole address range plus guard regions (8 GB and more) and opens its start.
    else if (m.perm === "rw-p" && reserved >= WASM_RESERVATION) parts.wasm += m.rss;
    // glibc gives each thread that mallocs an arena of its own: a heap of 64 MB of address space, aligned to 64 MB.
    else if (m.perm === "rw-p" && m.start % ARENA === 0n && reserved === ARENA) parts.malloc += m.rss;
    else parts.other += m.rss;
  }
  return parts;
}

/** `binary 31.2, malloc 9.1, …` */
export function describeParts(parts: RssParts): string {
  return Object.entries(parts)
    .map(([name, mb]) => `${name} ${mb.toFixed(1)}`)
    .join(", ");
}
