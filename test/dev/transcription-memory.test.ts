import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { AI_TRANSCRIPTION_MAX_SECONDS } from "../../common/contract/workers-ai";

/**
 * The Worker's transcription route must stay well inside a Worker's 128 MB with several chunks in flight in one
 * isolate. The benchmark (worker/bench/transcription-memory.ts) runs the route's code in Node and reads the memory
 * held at the model call, after a full garbage collection; its figures are printed here.
 */
describe("the transcription route's memory per chunk", () => {
  it("holds at most 4.5 bytes per wav byte at the model call, under 20 MB for the longest chunk it takes", async () => {
    const root = path.join(import.meta.dirname, "../..");
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", "worker/bench/transcription-memory.ts", "--json", `--seconds=30,${AI_TRANSCRIPTION_MAX_SECONDS}`], { cwd: root });
    const rows = JSON.parse(stdout.trim().split("\n").at(-1)!) as { seconds: number; wav_mb: number; held_mb: number; held_before_mb: number; per_wav_byte: number }[];
    console.log(rows.map((r) => `${r.seconds} s (${r.wav_mb} MB of wav): ${r.held_mb} MB held now, ${r.held_before_mb} MB with formData and a copy`).join("\n"));
    const longest = rows.find((r) => r.seconds === AI_TRANSCRIPTION_MAX_SECONDS)!;
    expect(longest.held_mb).toBeLessThan(20);
    // Beyond the base64 text the model takes and the binding's two serialisations of it, nothing scales with the wav.
    for (const r of rows.filter((x) => x.wav_mb >= 1)) expect(r.per_wav_byte).toBeLessThan(4.5);
  }, 120_000);
});
