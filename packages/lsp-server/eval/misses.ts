// The holes a configuration missed, one JSON object a line: what to look at when a recall figure falls short.
import { SCENARIOS } from "./drive.js";
import { CONFIGS, type CorpusResult } from "./evaluate.js";
import { recalled } from "./figures.js";

/**
 * Every hole whose request held none of its declaration lines, per configuration and scenario, as JSON lines:
 * the corpus, configuration, scenario, hole (id, name, stratum, pattern), its declaration lines, and the request's
 * last line (where the cursor was). Holes of `off` are listed too: there recall is 0 by construction; the
 * member-access holes under the configuration `on, member access`.
 */
export function missesOf(result: CorpusResult): string[] {
  const lines: string[] = [];
  const runs = [
    ...CONFIGS.map(({ name }) => ({ config: name as string, observations: result.runs[name].observations })),
    { config: "on, member access", observations: result.members.observations },
  ];
  for (const { config, observations } of runs) {
    for (const scenario of SCENARIOS) {
      for (const { hole, sent } of observations[scenario] ?? []) {
        if (recalled(hole, sent)) continue;
        lines.push(
          JSON.stringify({
            corpus: result.corpus.name,
            language: result.corpus.language,
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
