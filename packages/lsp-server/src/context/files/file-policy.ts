// Which files repository context may read and send. Pure: the edge (source-cache.ts) applies these to what it
// stats and reads.

/** Files larger than this are never read, in bytes (1 MiB). */
export const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Whether an open document of this length (UTF-16 code units, never more than its UTF-8 bytes) is over the size of
 * the files never read: it is then no context either, neither indexed nor parsed, nor kept once closed. A 5 MB
 * buffer's index and parse held about 40 MB while it was open, and made 100 MB of garbage each time it was indexed
 * again after edits.
 */
export function openDocumentTooLarge(length: number): boolean {
  return length > MAX_FILE_BYTES;
}

/**
 * Gitignore-style patterns never read, whatever `.gitignore` says: secrets (keys, certificates, credentials, env
 * files, password stores) and folders that are never source.
 */
export const BUILT_IN_EXCLUDES: readonly string[] = [
  ".git/",
  "node_modules/",
  ".env",
  ".env.*",
  "*.env",
  ".envrc",
  "*.pem",
  "*.key",
  "*.crt",
  "*.cer",
  "*.der",
  "*.p12",
  "*.pfx",
  "*.jks",
  "*.keystore",
  "*.kdbx",
  "*.gpg",
  "*.asc",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  ".ssh/",
  ".gnupg/",
  ".aws/",
  ".azure/",
  ".kube/config",
  ".docker/config.json",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".yarnrc.yml",
  ".git-credentials",
  ".htpasswd",
  "*credentials*.json",
  "secrets.*",
  "*.secret",
  "*.secrets",
  "service-account*.json",
  "*.tfvars",
  "*.tfstate",
];

/** Bytes looked at to tell text from binary. */
const SNIFF_BYTES = 8000;

/** A file is binary when its first 8000 bytes hold a NUL (what git and grep check). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Lines longer than this mark generated or minified code. */
const MINIFIED_LINE = 1000;
/** Or an average line this long over a file of some size. */
const MINIFIED_AVERAGE = 300;

/**
 * Minified or generated-in-one-line code (bundles, `.min.js`, source maps inlined): a line of over 1000 characters
 * among the first 50 lines, or an average line length over 300 characters in a file over 4 KB. Such files make
 * poor context and eat the budget.
 */
export function looksMinified(text: string): boolean {
  let start = 0;
  for (let line = 0; line < 50 && start < text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end - start > MINIFIED_LINE) return true;
    start = end + 1;
  }
  if (text.length <= 4096) return false;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.length / lines > MINIFIED_AVERAGE;
}
