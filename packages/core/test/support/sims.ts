// Simulators a test starts, closed after it, and what tests of the clients read streams with.
import { type Sim, type SimOptions, startSim } from "@infill/sim";
import { afterEach } from "vitest";

const running: Sim[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Starts a simulator that is closed after the current test. */
export async function trackedSim(options: SimOptions = {}): Promise<Sim> {
  const sim = await startSim(options);
  running.push(sim);
  return sim;
}

/** Every item of a stream, in order. */
export async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}
