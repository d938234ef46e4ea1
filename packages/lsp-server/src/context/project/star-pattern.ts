/**
 * The best `*` pattern for a specifier among keys like tsconfig `paths` and package.json `exports` use
 * (`"@/*"`, `"./features/*.js"`): the one with the longest prefix before its `*` that matches, and what its `*`
 * stands for. Keys without `*` are skipped (exact keys are looked up first by the caller).
 */
export function bestStarMatch<V>(
  entries: Iterable<readonly [string, V]>,
  specifier: string,
): { value: V; matched: string } | undefined {
  let best: { prefix: string; suffix: string; value: V } | undefined;
  for (const [pattern, value] of entries) {
    const star = pattern.indexOf("*");
    if (star === -1) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (specifier.length < prefix.length + suffix.length) continue;
    if (!specifier.startsWith(prefix) || !specifier.endsWith(suffix)) continue;
    if (!best || prefix.length > best.prefix.length) best = { prefix, suffix, value };
  }
  if (!best) return undefined;
  return {
    value: best.value,
    matched: specifier.slice(best.prefix.length, specifier.length - best.suffix.length),
  };
}
