// The context eval's Debian downloads: the mirror chosen as apt's, a pinned file fetched once into the cache and
// checked, a mismatch refused. A loopback HTTP server stands in for the mirror.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { debianFile, debianMirror } from "../eval/debian-archive.js";

describe("debianMirror", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "infill-apt-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("takes INFILL_DEBIAN_MIRROR, else apt's first …/debian source (one-line or deb822), else deb.debian.org", () => {
    expect(debianMirror({ INFILL_DEBIAN_MIRROR: "http://m.example/debian/" }, dir)).toBe(
      "http://m.example/debian",
    );
    expect(debianMirror({}, dir)).toBe("http://deb.debian.org/debian");
    mkdirSync(path.join(dir, "sources.list.d"));
    writeFileSync(
      path.join(dir, "sources.list.d", "debian.sources"),
      "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n\nURIs: http://mirror.example/debian-security\n",
    );
    expect(debianMirror({}, dir)).toBe("http://mirror.example/debian");
    writeFileSync(
      path.join(dir, "sources.list"),
      "# deb http://commented.example/debian bookworm main\ndeb [arch=amd64] https://first.example/debian/ bookworm main\n",
    );
    expect(debianMirror({}, dir)).toBe("https://first.example/debian");
  });
});

describe("debianFile", () => {
  const bytes = Buffer.from("a pinned archive's bytes\n");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const cache = mkdtempSync(path.join(tmpdir(), "infill-eval-cache-"));
  const served: string[] = [];
  let server: Server;
  let mirror: string;
  const previous = process.env.XDG_CACHE_HOME;

  beforeAll(async () => {
    process.env.XDG_CACHE_HOME = cache;
    server = createServer((req, res) => {
      served.push(req.url ?? "");
      if (req.url === "/debian/pool/main/x/x/x_1.0.orig.tar.gz") res.end(bytes);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/debian`;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previous;
    await new Promise((resolve) => server.close(resolve));
    rmSync(cache, { recursive: true, force: true });
  });

  it("downloads a pinned file once, checks its SHA-256 and serves it from the cache after", async () => {
    const pool = "pool/main/x/x/x_1.0.orig.tar.gz";
    const file = await debianFile({ pool, sha256 }, mirror);
    expect(file).toBe(path.join(cache, "infill", "eval", "x_1.0.orig.tar.gz"));
    expect(await debianFile({ pool, sha256 }, mirror)).toBe(file);
    expect(served).toEqual([`/debian/${pool}`]);
  });

  it("refuses a file whose SHA-256 differs from the pin and keeps nothing of it; names a missing one", async () => {
    const pool = "pool/main/x/x/x_1.0.orig.tar.gz";
    rmSync(path.join(cache, "infill", "eval"), { recursive: true, force: true });
    await expect(debianFile({ pool, sha256: "0".repeat(64) }, mirror)).rejects.toThrow(
      /SHA-256 [0-9a-f]{64}/,
    );
    expect(readdirSync(path.join(cache, "infill", "eval"))).toEqual([]);
    await expect(debianFile({ pool: "pool/main/y/y/y_2.deb", sha256 }, mirror)).rejects.toThrow(/404/);
    expect(existsSync(path.join(cache, "infill", "eval", "y_2.deb"))).toBe(false);
  });
});
