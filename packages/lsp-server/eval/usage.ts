// The sim's token accounting of recorded requests: prompt tokens and prompt-cache hits, as DeepSeek bills them.
import { startSim } from "@infill/sim";
import { request } from "undici";
import type { SentRequest } from "./drive.js";

/** DeepSeek's `usage`, the fields the eval reads. */
export interface PromptUsage {
  /** Tokens of prompt and suffix (and the FIM hole marker). */
  prompt_tokens: number;
  /** Of those, tokens served from the prompt cache (64-token units of an identical prefix). */
  prompt_cache_hit_tokens: number;
}

/**
 * Send the recorded bodies, in order, to a fresh sim (an empty prompt cache, as a new session starts with) asking
 * for one token each, and return the `usage` of each: the very accounting the sim applied when the server sent
 * them, without the other sessions' requests that shared its cache.
 */
export async function usageOf(sent: readonly SentRequest[]): Promise<PromptUsage[]> {
  const sim = await startSim({ keepRequests: 0 });
  try {
    const usages: PromptUsage[] = [];
    for (const body of sent) {
      const res = await request(`${sim.url}/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: body.model, prompt: body.prompt, suffix: body.suffix, max_tokens: 1 }),
      });
      const answer = (await res.body.json()) as { usage?: PromptUsage };
      if (res.statusCode !== 200 || !answer.usage)
        throw new Error(`the sim refused a recorded request (status ${res.statusCode})`);
      usages.push(answer.usage);
    }
    return usages;
  } finally {
    await sim.close();
  }
}
