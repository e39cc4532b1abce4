import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseMediaPlaylist } from "../../common/twitch";
import { generateSyntheticVod, type SyntheticVodTruth } from "../../dev/synth-vod";
import { planTimeline } from "../../dev/synth-vod/plan";
import type { ChatFile, VideoFile } from "../../dev/twitch-server";
import { SMALL_VOD } from "./fixture-vods";
import { frameRgb, median, packetTimes, rmsPerSecond, steps, streams } from "./media-probe";

const OPTIONS = SMALL_VOD;

let dir: string;
let truth: SyntheticVodTruth;
const file = (...p: string[]) => path.join(dir, ...p);

beforeAll(async () => {
  ({ dir, truth } = await generateSyntheticVod(OPTIONS));
});

describe("planTimeline (default moments)", () => {
  it("plans hype moments and both distractors, apart and inside the VOD", () => {
    const plan = planTimeline(3600, 3);
    const kinds = new Set(plan.moments.map((m) => m.kind));
    expect(kinds).toEqual(new Set(["hype", "loud_only", "chat_only"]));
    expect(plan.moments.filter((m) => m.kind === "hype").length).toBeGreaterThan(10);
    for (let i = 0; i < plan.moments.length; i++) {
      const m = plan.moments[i]!;
      expect(m.setup_start).toBeGreaterThanOrEqual(0);
      expect(Math.max(m.end, m.chat?.end ?? 0)).toBeLessThanOrEqual(3600);
      if (m.kind === "hype") expect(m.chat!.lag).toBeGreaterThanOrEqual(5);
      if (m.kind === "hype") expect(m.chat!.lag).toBeLessThanOrEqual(12);
      const next = plan.moments[i + 1];
      if (next) expect(next.setup_start).toBeGreaterThan(Math.max(m.end, m.chat?.end ?? 0));
    }
    expect(plan.quiet.length).toBeGreaterThan(0);
    expect(plan.scenes.length).toBeGreaterThan(5);
    expect(planTimeline(3600, 3)).toEqual(plan);
  });
});

describe("generateSyntheticVod", () => {
  it("writes a folder the local Twitch server can serve", async () => {
    const video = JSON.parse(await readFile(file("video.json"), "utf8")) as VideoFile;
    expect(video.lengthSeconds).toBe(95);
    expect(video.renditions!.map((r) => r.group_id)).toEqual(["chunked", "audio_only"]);
    for (const group of ["chunked", "audio_only"]) {
      const playlist = parseMediaPlaylist(await readFile(file(group, "index-dvr.m3u8"), "utf8"), `file://${dir}/${group}/index-dvr.m3u8`);
      expect(playlist.ended).toBe(true);
      expect(playlist.segments).toHaveLength(10);
      expect(playlist.total_duration).toBeCloseTo(95, 0);
      expect(playlist.segments[5]!.muted).toBe(true);
      expect(playlist.segments[5]!.uri).toMatch(/\/5-muted\.ts$/);
      for (const s of playlist.segments.slice(0, -1)) expect(s.duration).toBeCloseTo(10, 1);
      for (const s of truth.renditions[group as "chunked"]) expect((await stat(file(group, s.file))).size).toBe(s.bytes);
    }
  });

  it("source segments are H.264 + AAC at the asked size, audio_only segments AAC alone", async () => {
    const video = await streams(file("chunked", "0.ts"));
    expect(video.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    const v = video.find((s) => s.codec_type === "video")!;
    expect([v.width, v.height, v.r_frame_rate]).toEqual([320, 180, "30/1"]);
    const audio = await streams(file("audio_only", "0.ts"));
    expect(audio.map((s) => s.codec_name)).toEqual(["aac"]);
    expect(audio[0]!.sample_rate).toBe("48000");
  });

  it("consecutive segments join with continuous timestamps", async () => {
    const joined = `concat:${["2.ts", "3.ts", "4.ts"].map((f) => file("chunked", f)).join("|")}`;
    const video = steps(await packetTimes(joined, "v"));
    expect(video.min).toBeCloseTo(1 / 30, 3);
    expect(video.max).toBeCloseTo(1 / 30, 3);
    const audio = steps(await packetTimes(joined, "a"));
    expect(audio.max).toBeLessThan(0.0215);
    const audioOnly = `concat:${["2.ts", "3.ts", "4.ts"].map((f) => file("audio_only", f)).join("|")}`;
    expect(steps(await packetTimes(audioOnly, "a")).max).toBeLessThan(0.0215);
    const times = await packetTimes(joined, "v");
    expect(times.at(-1)! - times[0]!).toBeCloseTo(30 - 1 / 30, 2);
  });

  it("plants loud bursts, quiet stretches and muted silence where truth says", async () => {
    const rms = await rmsPerSecond(file("audio_only", "index-dvr.m3u8"));
    expect(rms.length).toBeGreaterThanOrEqual(95);
    const talk = median(truth.sentences.filter((s) => !s.loud && !s.muted).map((s) => rms[Math.floor((s.start + s.end) / 2)]!));
    for (const m of truth.moments.filter((x) => x.kind !== "chat_only")) {
      const burst = Math.max(...rms.slice(m.peak, m.peak + 4));
      expect(burst, `burst of ${m.id}`).toBeGreaterThan(talk + 12);
    }
    const chatOnly = truth.moments.find((m) => m.kind === "chat_only")!;
    expect(Math.max(...rms.slice(chatOnly.peak, chatOnly.end))).toBeLessThan(talk + 6);
    for (const q of truth.quiet) {
      expect(Math.max(...rms.slice(q.start + 1, q.end - 1))).toBeLessThan(talk - 25);
    }
    for (const s of rms.slice(51, 59)) expect(s).toBe(Number.NEGATIVE_INFINITY);
    expect(talk).toBeGreaterThan(-32);
    expect(talk).toBeLessThan(-18);
  });

  it("records the spoken sentences without overlaps, excited lines inside the bursts", () => {
    expect(truth.sentences.length).toBeGreaterThan(10);
    for (let i = 1; i < truth.sentences.length; i++) {
      expect(truth.sentences[i]!.start).toBeGreaterThanOrEqual(truth.sentences[i - 1]!.end);
    }
    const loud = truth.sentences.filter((s) => s.loud);
    expect(loud.length).toBeGreaterThanOrEqual(2);
    for (const s of loud) {
      const m = truth.moments.find((x) => x.loud_start !== null && s.start >= x.loud_start && s.start < x.loud_end!);
      expect(m).toBeDefined();
    }
    expect(truth.sentences.filter((s) => s.muted).every((s) => s.end > 50 && s.start < 60)).toBe(true);
  });

  it("chat bursts follow hype moments with many chatters; spam comes from few", async () => {
    const chat = JSON.parse(await readFile(file("chat.json"), "utf8")) as ChatFile;
    expect(chat.comments.length).toBe(truth.chat.total_messages);
    const hype = truth.moments.find((m) => m.kind === "hype")!;
    expect(hype.chat_start! - hype.peak).toBeGreaterThanOrEqual(5);
    expect(hype.chat_start! - hype.peak).toBeLessThanOrEqual(12);
    const inWindow = (a: number, b: number) => chat.comments.filter((c) => c.contentOffsetSeconds >= a && c.contentOffsetSeconds < b);
    const burst = inWindow(hype.chat_start!, hype.chat_end!);
    const baseline = inWindow(0, 20).length / 20;
    expect(burst.length / (hype.chat_end! - hype.chat_start!)).toBeGreaterThan(baseline * 5);
    expect(new Set(burst.map((c) => c.commenter!.login)).size).toBeGreaterThan(40);
    const texts = burst.map((c) => c.message.fragments.map((f) => f.text).join(""));
    expect(texts.some((t) => /KEKW|PogChamp|LUL|no way|LMAO/i.test(t))).toBe(true);
    expect(burst.some((c) => c.message.fragments.some((f) => f.emote?.emoteID))).toBe(true);
    const loudOnly = truth.moments.find((m) => m.kind === "loud_only")!;
    // Where a hype burst would be (5-15 s after), a loud-only moment gets only background chat.
    expect(inWindow(loudOnly.peak + 5, loudOnly.peak + 15).length).toBeLessThan(12);
    const spam = truth.moments.find((m) => m.kind === "chat_only")!;
    const spamMessages = inWindow(spam.chat_start!, spam.chat_end!);
    expect(spamMessages.length).toBeGreaterThan(40);
    expect(new Set(spamMessages.map((c) => c.commenter!.login)).size).toBeLessThan(20);
    expect(chat.comments.every((c) => Number.isInteger(c.contentOffsetSeconds))).toBe(true);
  });

  it("shows the facecam box where truth says", async () => {
    const { width, height } = truth.video;
    const rgb = await frameRgb(file("chunked", "1.ts"), 1, width, height);
    const pixel = (x: number, y: number) => [...rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
    const cam = truth.facecam;
    expect(cam).toMatchObject({ x: 6, y: 6, width: 80, height: 60, corner: "top-left" });
    // Inside the border, left of the moving face: the facecam's violet background.
    const [r, g, b] = pixel(cam.x + 5, cam.y + cam.height - 6);
    expect(Math.abs(r! - 0x7a)).toBeLessThan(30);
    expect(Math.abs(g! - 0x3f)).toBeLessThan(30);
    expect(Math.abs(b! - 0xbf)).toBeLessThan(30);
  });

  it("reuses a VOD generated with the same parameters", async () => {
    const before = (await stat(file("truth.json"))).mtimeMs;
    const started = Date.now();
    const again = await generateSyntheticVod(OPTIONS);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(again.truth).toEqual(truth);
    expect((await stat(file("truth.json"))).mtimeMs).toBe(before);
  });
});
