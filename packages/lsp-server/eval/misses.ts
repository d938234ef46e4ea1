// The holes a configuration missed, one JSON object a line: what to look at when a recall figure falls short.
import { SCENARIOS } from "./drive.js";
import { type CorpusResult, MEMBER_CONFIGS } from "./evaluate.js";
import { recalled } from "./figures.js";

/**
 * Every hole whose request held none of its declaration lines, per configuration and scenario, as JSON lines:
 * the corpus, which holes (`name`; `member access`; `member access, declared type`, the Java, C# and C++
 * oracle's), configuration (`off`, `on`, and `editor`: on with the editor answering `infill/typeDefinitions`, which
 * runs the member-access holes only), scenario, hole (id, name, stratum, pattern), its declaration lines, and the
 * request's last line (where the cursor was). Holes of `off` are listed too: there recall is 0 by construction.
 */
export function missesOf(result: CorpusResult): string[] {
  const lines: string[] = [];
  for (const { name: config } of MEMBER_CONFIGS) {
    for (const scenario of SCENARIOS) {
      const observations = [
        ...(config === "editor" ? [] : result.runs[config].observations[scenario]).map((o) => ({
          ...o,
          holes: "name",
        })),
        ...(result.members.observations[config]?.[scenario] ?? []).map((o) => ({
          ...o,
          holes: "member access",
        })),
        ...(result.declMembers?.observations[config]?.[scenario] ?? []).map((o) => ({
          ...o,
          holes: "member access, declared type",
        })),
      ];
      for (const { hole, sent, holes } of observations) {
        if (recalled(hole, sent)) continue;
        lines.push(
          JSON.stringify({
            corpus: result.corpus.name,
            language: result.corpus.language,
            holes,
            config,
            scenario,
            id: hole.id,
            name: hole.name,
            stratum: hole.stratum,
            pattern: hole.pattern,
            declarations: hole.declarations.map((d) => `${d.file}:${d.line + 1}: ${d.text}`),
            cursorLine: sent ? sent.prompt.slice(sent.prompt.lastIndexOf("\n") + 1) : null,
          }),
        );
      }
    }
  }
  return lines;
}
