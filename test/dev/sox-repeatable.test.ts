import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { soxSound } from "../../dev/synth-streams-b/sox-clip";
import { gunfire } from "../../dev/synth-streams-c/game-sounds";
import { Random } from "../../dev/synth-vod/random";

const dirs: string[] = [];
const freshCache = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "sox-repeatable-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe("generated sounds are the same on every machine", () => {
  it("draws the same noise for the same recipe in two empty caches (sox -R)", async () => {
    // Without -R, sox seeds its noise from the clock: two runs of this recipe differ in every sample.
    const recipe = { effects: ["synth", "0.5", "brownnoise", "highpass", "1000", "gain", "-n", "-1"] };
    const [a, b] = [await soxSound(recipe, await freshCache()), await soxSound(recipe, await freshCache())];
    expect(a.samples.length).toBeGreaterThan(1000);
    expect(Buffer.from(b.samples.buffer).equals(Buffer.from(a.samples.buffer))).toBe(true);
    const [g1, g2] = [await gunfire(new Random(22), await freshCache()), await gunfire(new Random(22), await freshCache())];
    expect(Buffer.from(g2.samples.buffer).equals(Buffer.from(g1.samples.buffer))).toBe(true);
  });
});
