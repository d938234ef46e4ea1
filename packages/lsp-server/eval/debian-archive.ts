// A file of Debian's archive pinned by its path in the pool and its SHA-256: downloaded once from the machine's
// Debian mirror into the eval's cache, checked, and unpacked (a source tarball with tar, a .deb with dpkg-deb).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { EnvHttpProxyAgent, fetch } from "undici";
import { cacheDir } from "./npm-package.js";

const run = promisify(execFile);

/** A file of the archive, pinned. */
export interface DebianFile {
  /** Its path under the mirror: `pool/main/m/mbedtls/mbedtls_2.28.3.orig.tar.gz`. */
  readonly pool: string;
  /** SHA-256 of its bytes, hex (as the archive's `Sources` and `Packages` indexes record it). */
  readonly sha256: string;
}

/**
 * The Debian mirror to download from: `INFILL_DEBIAN_MIRROR`, else the first `…/debian` URI of the machine's apt
 * sources (one-line and deb822 formats), else `http://deb.debian.org/debian`; as scripts/provision-editors.sh
 * chooses it.
 */
export function debianMirror(env: NodeJS.ProcessEnv = process.env, aptDir = "/etc/apt"): string {
  if (env.INFILL_DEBIAN_MIRROR) return env.INFILL_DEBIAN_MIRROR.replace(/\/+$/, "");
  const lists = [path.join(aptDir, "sources.list")];
  const parts = path.join(aptDir, "sources.list.d");
  if (existsSync(parts)) {
    for (const name of readdirSync(parts).sort())
      if (/\.(?:list|sources)$/.test(name)) lists.push(path.join(parts, name));
  }
  for (const list of lists) {
    if (!existsSync(list)) continue;
    for (const line of readFileSync(list, "utf8").split("\n")) {
      const uris =
        /^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line)?.[1] ?? /^URIs:\s*(.*)$/.exec(line)?.[1] ?? "";
      for (const uri of uris.split(/\s+/)) {
        if (/^https?:\/\/.*\/debian\/?$/.test(uri)) return uri.replace(/\/+$/, "");
      }
    }
  }
  return "http://deb.debian.org/debian";
}

/**
 * The pinned file in the cache (`$XDG_CACHE_HOME/infill/eval`), downloaded from the mirror when missing or when
 * the cached copy does not match. A download whose SHA-256 differs from the pin is deleted and throws: the archive
 * replaced the file, and the pin must be updated with a new version on purpose.
 */
export async function debianFile(file: DebianFile, mirror = debianMirror()): Promise<string> {
  const cache = cacheDir();
  mkdirSync(cache, { recursive: true });
  const target = path.join(cache, path.posix.basename(file.pool));
  if (existsSync(target) && sha256Of(target) === file.sha256) return target;
  const partial = `${target}.${process.pid}.partial`;
  const url = `${mirror}/${file.pool}`;
  try {
    const response = await fetch(url, { dispatcher: new EnvHttpProxyAgent() });
    if (!response.ok || !response.body) {
      throw new Error(
        `${url}: ${response.status} ${response.statusText} (the archive may have dropped this version: pin another)`,
      );
    }
    await pipeline(Readable.fromWeb(response.body), createWriteStream(partial));
    const got = sha256Of(partial);
    if (got !== file.sha256) throw new Error(`${url}: SHA-256 ${got}, the eval pins ${file.sha256}`);
    renameSync(partial, target);
    return target;
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Unpack an archive into a folder: a `.deb`'s files with `dpkg-deb -x`, a tarball (any compression) with tar. */
export async function unpack(archive: string, into: string): Promise<void> {
  mkdirSync(into, { recursive: true });
  if (archive.endsWith(".deb")) await run("dpkg-deb", ["-x", archive, into]);
  else await run("tar", ["-xf", archive, "-C", into]);
}

function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}
