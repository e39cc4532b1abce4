import { generateSyntheticVod } from "../synth-vod";

/** The sample VOD of the quick start: six minutes with planted hype moments and distractors. */
export const SAMPLE_VOD_ID = "900000001";

export async function ensureSampleVod(root: string) {
  return generateSyntheticVod({
    root,
    vodId: SAMPLE_VOD_ID,
    durationSeconds: 360,
    seed: 1,
    moments: [
      { kind: "hype", peak: 60 },
      { kind: "loud_only", peak: 125 },
      { kind: "hype", peak: 190 },
      { kind: "chat_only", peak: 250 },
      { kind: "hype", peak: 310 },
    ],
  });
}
