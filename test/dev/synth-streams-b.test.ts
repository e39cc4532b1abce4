/**
 * The second source of evaluation streams (dev/synth-streams-b) plants what its truth says: checked on the
 * plans of many seeds (cheap, no media) and on one generated 6-minute stream with a huge chat, a raid, a hype
 * moment over a game sound and loud game sounds on their own. Nothing here runs the selection.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CONDITIONS, generateStreamB, PALETTE_B, streamSpec, type StreamTruthB } from "../../dev/synth-streams-b";
import { generateStreamC, generateStreamCCompressed, generateStreamCLoudnorm, PALETTE_C, PALETTE_C_FLAT } from "../../dev/synth-streams-c";
import { speakFlite } from "../../dev/synth-streams-c/flite-voices";
import { Random } from "../../dev/synth-vod/random";
import { quantile } from "../../render-container/src/analysis/stats";
import { voicedPower } from "../../render-container/src/analysis/voice-activity/periodicity";
import { synthCacheRoot } from "../../dev/synth-vod";
import { louderGame, planTimeline, REAL_KINDS, withoutRealMoments } from "../../dev/synth-streams-b/timeline";
import { mixToFlac } from "../../dev/synth-streams-b/mix";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { PALETTE_C_DRIFT, PALETTE_C_LOUD } from "../../dev/synth-streams-c";
import { drawDrift, driftDbAt, driftGainAt } from "../../dev/synth-streams-b/level-drift";
import type { ChatFile } from "../../dev/twitch-server";

describe("source b plans", () => {
  const seeds = Array.from({ length: 70 }, (_, i) => i + 1);

  it("vary the condition, voices, levels and chat lag (2-30 s; 14-24 s late-chat) by seed, and plant every real kind", () => {
    const specs = seeds.map((s) => streamSpec(s));
    expect(new Set(specs.map((s) => s.condition))).toEqual(new Set(CONDITIONS));
    for (const s of specs) {
      expect(streamSpec(s.seed)).toEqual(s);
      expect(s.chatLag).toBeGreaterThanOrEqual(s.condition === "late_chat" ? 14 : 2);
      expect(s.chatLag).toBeLessThanOrEqual(s.condition === "late_chat" ? 24 : 30);
      if (s.condition === "long_stream") expect(s.durationSeconds).toBeGreaterThanOrEqual(7200);
      if (s.condition === "huge_chat") expect(s.chatRate).toBeGreaterThanOrEqual(10);
      if (s.condition === "small_chat") expect(s.chatRate * 60).toBeLessThanOrEqual(5);
      if (s.condition === "music_bed") expect(s.music).toBe(true);
      if (s.condition === "duo") expect(s.guestShare).toBeGreaterThan(0.25);
      const kinds = new Set(planTimeline(s).moments.map((m) => m.kind));
      for (const k of ["hype", "streamer_only", "audience_only", "game_sounds", "calm_over_loud", "spam_loop", "spam_bots", "greeting_wave"] as const) expect(kinds, `seed ${s.seed}`).toContain(k);
    }
    expect(new Set(specs.map((s) => s.streamer.name)).size).toBeGreaterThan(20);
    expect(new Set(specs.map((s) => s.chatLag)).size).toBeGreaterThan(20);
    expect(Math.max(...specs.map((s) => s.voiceDb)) - Math.min(...specs.map((s) => s.voiceDb))).toBeGreaterThan(6);
  });

  it("with --sounds loud, put every shout under a game sound louder than it, and calm talk under a louder fight, changing nothing else", () => {
    const loud = PALETTE_C_LOUD.loudGame!;
    let under = 0;
    for (const seed of seeds.slice(0, 20)) {
      const spec = streamSpec(seed, PALETTE_C_LOUD);
      const plain = planTimeline(spec, PALETTE_C_LOUD.shoutSeconds);
      const louder = louderGame(plain, spec, loud);
      expect(louder.ambientSounds).toEqual(plain.ambientSounds);
      louder.moments.forEach((m, i) => {
        const p = plain.moments[i]!;
        expect({ ...m, sound: null }).toEqual({ ...p, sound: null });
        if (m.shout && (m.kind === "hype" || m.kind === "streamer_only")) {
          expect(m.sound!.at).toEqual([m.peak]);
          expect(m.sound!.db - m.shout.db).toBeGreaterThanOrEqual(loud.overShoutDb[0]);
          expect(m.sound!.db - m.shout.db).toBeLessThanOrEqual(loud.overShoutDb[1]);
          if (!p.sound || p.sound.db < m.shout.db) under++;
        } else if (m.kind === "calm_over_loud") {
          expect(m.sound!.at).toEqual(p.sound!.at);
          expect(m.sound!.db - spec.voiceDb).toBeGreaterThanOrEqual(loud.calmFightOverTalkDb[0]);
          expect(m.sound!.db - spec.voiceDb).toBeLessThanOrEqual(loud.calmFightOverTalkDb[1]);
        } else expect(m.sound).toEqual(p.sound);
      });
    }
    // Most shouts of the plain plans were over no sound or one quieter than the shout: the variant changes them.
    expect(under).toBeGreaterThan(50);
  });

  it("with --moments none, keep every distractor and leave out every real moment", () => {
    for (const seed of seeds.slice(0, 20)) {
      const plain = planTimeline(streamSpec(seed, PALETTE_C_LOUD), PALETTE_C_LOUD.shoutSeconds);
      const calm = withoutRealMoments(plain);
      expect(calm.moments.some((m) => REAL_KINDS.includes(m.kind))).toBe(false);
      expect(calm.moments).toEqual(plain.moments.filter((m) => !REAL_KINDS.includes(m.kind)));
      expect(calm.moments.length).toBeGreaterThanOrEqual(5);
      expect(calm.ambientSounds).toEqual(plain.ambientSounds);
    }
  });

  it("with --levels drift, draw per stream a slow swing of the voice (3-6 dB) and of the game (2-5 dB), each its own, from a random stream of their own", () => {
    const drift = PALETTE_C_DRIFT.levelDrift!;
    const drawn = seeds.slice(0, 20).map((seed) => drawDrift(seed, drift));
    for (const d of drawn) {
      expect(d.voice.amplitudeDb).toBeGreaterThanOrEqual(3);
      expect(d.voice.amplitudeDb).toBeLessThanOrEqual(6);
      expect(d.game.amplitudeDb).toBeGreaterThanOrEqual(2);
      expect(d.game.amplitudeDb).toBeLessThanOrEqual(5);
      for (const c of [d.voice, d.game]) {
        expect(c.periodSeconds).toBeGreaterThanOrEqual(360);
        expect(c.periodSeconds).toBeLessThanOrEqual(960);
        // Within a 20-minute stream the curve reaches both ends of its swing.
        const values = Array.from({ length: 1200 }, (_, t) => driftDbAt(c, t));
        expect(Math.max(...values)).toBeGreaterThan(0.9 * c.amplitudeDb);
        expect(Math.min(...values)).toBeLessThan(-0.9 * c.amplitudeDb);
      }
      expect(d.voice.phase).not.toBe(d.game.phase);
    }
    expect(new Set(drawn.map((d) => d.voice.periodSeconds.toFixed(3))).size).toBe(20);
    expect(drawDrift(seeds[0]!, drift)).toEqual(drawn[0]);
    expect(driftGainAt(undefined, 100)).toBe(1);
    // The plan is the plain one: the drift draws nothing from the plan's random streams.
    expect(streamSpec(seeds[0]!, PALETTE_C_DRIFT)).toEqual(streamSpec(seeds[0]!, PALETTE_C));
  });
});

/** Per-second RMS (dBFS) of the generated track, read back through FFmpeg as any analysis would read it. */
async function secondsDb(file: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)("ffmpeg", ["-v", "error", "-i", file, "-f", "s16le", "-ac", "1", "-ar", "8000", "-"], { encoding: "buffer", maxBuffer: 1 << 28 });
  const s = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
  const out: number[] = [];
  for (let i = 0; i + 8000 <= s.length; i += 8000) {
    let sum = 0;
    for (let j = i; j < i + 8000; j++) sum += (s[j]! / 32768) ** 2;
    out.push(10 * Math.log10(sum / 8000 + 1e-12));
  }
  return out;
}

describe("a generated 6-minute stream of source b (huge chat, a raid, a hype moment over a game sound)", () => {
  // Seed 170 is a huge_chat stream whose first six minutes hold a raid, loud game sounds on their own, a hype
  // moment over an impact or gunfire and an audience-only moment, with chat 17 s late.
  const SEED = 170;
  let truth: StreamTruthB;
  let db: number[];
  let chat: { t: number; login: string; text: string }[];

  beforeAll(async () => {
    const made = await generateStreamB({ root: path.join(synthCacheRoot(), "test-streams"), vodId: "930100001", seed: SEED, durationSeconds: 360 });
    truth = made.truth;
    db = await secondsDb(path.join(made.dir, truth.audio_file));
    const file = JSON.parse(await readFile(path.join(made.dir, "chat.json"), "utf8")) as ChatFile;
    chat = file.comments.map((c) => ({ t: c.contentOffsetSeconds, login: c.commenter!.login, text: c.message.fragments.map((f) => f.text).join("") }));
  }, 120_000);

  const moment = (kind: string) => truth.moments.find((m) => m.kind === kind)!;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = (from: number, to: number) => chat.filter((c) => c.t >= from && c.t < to).length / (to - from);

  it("is the stream the test asked for", () => {
    expect(truth.condition).toBe("huge_chat");
    expect(truth.duration_seconds).toBe(360);
    expect(db.length).toBe(360);
    expect(truth.moments.map((m) => m.kind)).toEqual(expect.arrayContaining(["hype", "raid", "game_sounds", "audience_only"]));
  });

  it("the hype moment's game sound and shout are loud in the audio at the truth's peak", () => {
    const hype = moment("hype");
    expect(hype.sound?.kind).toMatch(/impact|gunfire/);
    const loudest = Math.max(...db.slice(Math.floor(hype.peak), Math.floor(hype.peak) + 3));
    expect(loudest - median(db)).toBeGreaterThan(8);
    // ... and not before it: the 10 s before the build-up are ordinary.
    expect(Math.max(...db.slice(Math.floor(hype.setup_start) - 10, Math.floor(hype.setup_start))) - median(db)).toBeLessThan(6);
  });

  it("game sounds on their own are loud, with no voice planted over them", () => {
    const g = moment("game_sounds");
    expect(Math.max(...db.slice(Math.floor(g.peak), Math.floor(g.end))) - median(db)).toBeGreaterThan(6);
    expect(truth.utterances.filter((u) => u.end > g.peak && u.start < g.end)).toEqual([]);
  });

  it("chat erupts after the configured lag, not before: the burst sits lag .. lag + 14 s after the peak", () => {
    const hype = moment("hype");
    const lag = truth.chat.lag_seconds;
    expect(lag).toBe(17);
    expect(Math.abs(hype.chat!.lag - lag)).toBeLessThanOrEqual(2);
    const during = rate(hype.peak + lag + 2, hype.peak + lag + 10);
    expect(during).toBeGreaterThan(2.5 * rate(hype.peak + 1, hype.peak + lag - 4));
    const ev = truth.chat.events.find((e) => e.moment_id === hype.id)!;
    expect(ev.start).toBeGreaterThanOrEqual(hype.peak + lag - 2 - 4 * truth.chat.jitter_seconds);
    expect(ev.distinct_accounts).toBeGreaterThan(50);
  });

  it("loud game sounds alone get no chat burst", () => {
    const g = moment("game_sounds");
    const lag = truth.chat.lag_seconds;
    expect(rate(g.peak + lag, g.peak + lag + 10)).toBeLessThan(1.5 * truth.chat.base_rate_per_second);
  });

  it("the raid comes from new accounts: none of them typed anything before it, all of them paste the raid message", () => {
    const raid = moment("raid");
    const accounts = new Set(truth.chat.raid_accounts);
    expect(accounts.size).toBeGreaterThan(100);
    expect(chat.filter((c) => accounts.has(c.login) && c.t < raid.peak)).toEqual([]);
    const first = new Map<string, string>();
    for (const c of chat) if (accounts.has(c.login) && !first.has(c.login)) first.set(c.login, c.text);
    expect(first.size).toBe(accounts.size);
    for (const text of first.values()) expect(text).toMatch(/raid|VoHiYo/i);
    // The streamer greets the raid calmly: a thank-you, no shout.
    expect(truth.utterances.some((u) => u.text.includes("raid") && !u.shout && u.start > raid.peak)).toBe(true);
  });

  it("spam comes from the accounts the truth names", () => {
    const spam = new Set(truth.chat.spam_accounts);
    const loop = truth.moments.find((m) => m.kind === "spam_loop");
    if (loop) {
      const ev = truth.chat.events.find((e) => e.moment_id === loop.id)!;
      expect(ev.distinct_accounts).toBe(1);
    }
    expect(chat.filter((c) => /buy cheap followers|check my channel|https:/i.test(c.text)).every((c) => spam.has(c.login))).toBe(true);
  });
});

describe("a generated 4-minute stream of source b with a guest and a music bed", () => {
  // Seed 2405 is a duo stream with a music bed: a hype moment the guest shouts along to, then a music swell.
  const SEED = 2405;
  let truth: StreamTruthB;
  let db: number[];

  beforeAll(async () => {
    const made = await generateStreamB({ root: path.join(synthCacheRoot(), "test-streams"), vodId: "930100002", seed: SEED, durationSeconds: 240 });
    truth = made.truth;
    db = await secondsDb(path.join(made.dir, truth.audio_file));
  }, 120_000);

  const busy = (s: number) =>
    truth.utterances.some((u) => u.end > s - 0.5 && u.start < s + 1.5) ||
    truth.ambient_sounds.some((a) => s > a.at - 1 && s < a.at + 6) ||
    truth.moments.some((m) => m.kind !== "greeting_wave" && s > m.peak - 2 && s < m.end + 2);

  it("the music bed plays under everything at the level truth gives it, and swells where truth says", () => {
    const { musicDb, gameDb, masterDb, music } = truth.spec;
    expect(music).toBe(true);
    // Where nobody talks and no game sound plays, the bed and the ambience are all there is.
    const quiet = db.map((v, s) => (busy(s) ? null : v)).filter((v): v is number => v !== null);
    expect(quiet.length).toBeGreaterThan(5);
    const expected = 10 * Math.log10(10 ** (musicDb / 10) + 10 ** (gameDb / 10)) + masterDb;
    const measured = [...quiet].sort((a, b) => a - b)[Math.floor(quiet.length / 2)]!;
    expect(Math.abs(measured - expected)).toBeLessThan(4);
    const swell = truth.moments.find((m) => m.kind === "music_swell")!;
    expect(Math.max(...db.slice(Math.ceil(swell.peak), Math.floor(swell.swell!.end))) - measured).toBeGreaterThan(10);
    expect(truth.utterances.filter((u) => u.end > swell.peak && u.start < swell.end)).toEqual([]);
  });

  it("a guest talks at times, over the streamer too, and shouts along at the hype moment", () => {
    const guest = truth.utterances.filter((u) => u.speaker === "guest");
    const streamer = truth.utterances.filter((u) => u.speaker === "streamer");
    const share = guest.reduce((a, u) => a + (u.end - u.start), 0) / truth.duration_seconds;
    expect(share).toBeGreaterThan(truth.spec.guestShare / 3);
    expect(guest.some((g) => streamer.some((s) => g.start < s.end && s.start < g.end))).toBe(true);
    const hype = truth.moments.find((m) => m.kind === "hype")!;
    expect(hype.shout!.guest_too).toBe(true);
    expect(guest.some((g) => g.shout && g.start >= hype.peak && g.start < hype.shout!.end)).toBe(true);
    // The guest's own sentences are heard: seconds inside them, with the streamer silent, are louder than the bed.
    const guestAlone = (x: number) =>
      guest.some((g) => !g.shout && g.start <= x && g.end >= x + 1) &&
      !streamer.some((u) => u.start < x + 1.2 && u.end > x - 0.2) &&
      !truth.ambient_sounds.some((a) => x > a.at - 1 && x < a.at + 6);
    const levels = db.filter((_, x) => guestAlone(x));
    expect(levels.length).toBeGreaterThan(2);
    const bed = 10 * Math.log10(10 ** (truth.spec.musicDb / 10) + 10 ** (truth.spec.gameDb / 10)) + truth.spec.masterDb;
    expect([...levels].sort((a, b) => a - b)[Math.floor(levels.length / 2)]! - bed).toBeGreaterThan(4);
  });
});

describe("source c: source b's plan of a stream with other voices, sounds and words", () => {
  // Seed 170's first six minutes planned by source b's rules (its own draws), spoken by flite with source c's
  // lines, sounds and chat.
  const SEED = 170;
  let b: StreamTruthB;
  let c: StreamTruthB;
  let cDir: string;
  let chat: { text: string; emotes: string[] }[];

  beforeAll(async () => {
    const root = path.join(synthCacheRoot(), "test-streams");
    b = (await generateStreamB({ root, vodId: "930100001", seed: SEED, durationSeconds: 360 })).truth;
    const made = await generateStreamC({ root, vodId: "940100001", seed: SEED, durationSeconds: 360 });
    c = made.truth;
    cDir = made.dir;
    const file = JSON.parse(await readFile(path.join(made.dir, "chat.json"), "utf8")) as ChatFile;
    chat = file.comments.map((n) => ({ text: n.message.fragments.map((f) => f.text).join(""), emotes: n.message.fragments.filter((f) => f.emote).map((f) => f.text) }));
  }, 120_000);

  it("plans by source b's rules: the seed's condition, its kinds of moment, chat lag in its bounds", () => {
    expect(c.source).toBe("c");
    expect(c.condition).toBe(b.condition);
    expect(new Set(c.moments.map((m) => m.kind))).toEqual(new Set(b.moments.map((m) => m.kind)));
    expect(c.chat.lag_seconds).toBeGreaterThanOrEqual(2);
    expect(c.chat.lag_seconds).toBeLessThanOrEqual(30);
  });

  it("speaks with flite and says source c's lines", () => {
    expect(c.spec.streamer.engine).toBe("flite");
    expect(streamSpec(SEED, PALETTE_C).streamer).toEqual(c.spec.streamer);
    const lines = new Set<string>(Object.values(PALETTE_C.lines).flat());
    expect(c.utterances.length).toBeGreaterThan(20);
    for (const u of c.utterances) expect(lines.has(u.text), u.text).toBe(true);
    expect(c.utterances.some((u) => b.utterances.some((v) => v.text === u.text))).toBe(false);
  });

  it("with --voices flat, speaks a diphone voice on one pitch, calm and shouting, and still raises it to shout", async () => {
    const voice = PALETTE_C_FLAT.drawVoice(new Random(3));
    expect(["kal", "kal16", "awb"]).toContain(voice.name);
    expect(voice.flat).toBe(true);
    /** The pitch of each voiced 30 ms window, Hz. */
    const pitches = async (v: typeof voice, text: string, shout: boolean) => {
      const s = await speakFlite(v, text, shout, synthCacheRoot());
      const out: number[] = [];
      for (let at = 0; at + 1440 <= s.samples.length; at += 1440) {
        const r = voicedPower(s.samples, at, 1440, 48_000);
        if (r.periodicity > 0.5) out.push(48_000 / r.period);
      }
      return out;
    };
    /** Share of the windows within 3 % of the median pitch. */
    const onePitch = (xs: number[]) => xs.filter((x) => Math.abs(x / quantile(xs, 0.5) - 1) < 0.03).length / xs.length;
    const line = PALETTE_C.lines.streamer_talk[0]!;
    const flatCalm = await pitches(voice, line, false);
    // Measured on eight flat voices: 0.90-1.00 of the windows (shouts 0.47-0.90, where sox's effects blur the
    // estimate), intonated 0.32-0.39.
    expect(onePitch(await pitches({ ...voice, flat: false }, line, false))).toBeLessThan(0.5);
    expect(onePitch(flatCalm)).toBeGreaterThan(0.85);
    const flatShout = await pitches(voice, PALETTE_C.lines.streamer_shouts[6]!, true);
    expect(onePitch(flatShout)).toBeGreaterThan(0.7);
    expect(quantile(flatShout, 0.5)).toBeGreaterThan(1.3 * quantile(flatCalm, 0.5));
  });

  /** Median level (RMS over each line) of the streamer's shouts over that of their calm talk, dB. */
  const shoutOverCalm = async (dir: string, truth: StreamTruthB) => {
    const { stdout } = await promisify(execFile)("ffmpeg", ["-v", "error", "-i", path.join(dir, truth.audio_file), "-f", "s16le", "-ac", "1", "-ar", "8000", "-"], { encoding: "buffer", maxBuffer: 1 << 28 });
    const x = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
    const rmsDb = (a: number, b: number) => {
      let sum = 0;
      let n = 0;
      for (let i = Math.floor(a * 8000); i < Math.min(x.length, b * 8000); i++, n++) sum += (x[i]! / 32768) ** 2;
      return 10 * Math.log10(sum / Math.max(1, n) + 1e-12);
    };
    const lines = (shout: boolean) => truth.utterances.filter((u) => u.speaker === "streamer" && u.shout === shout).map((u) => rmsDb(u.start, u.end));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(lines(true).length).toBeGreaterThan(0);
    return median(lines(true)) - median(lines(false));
  };

  // Measured on these six minutes: shouts 7.3 dB over calm talk in the plain mix, 3.5 dB through the compressor.
  it.each([
    ["compressed", generateStreamCCompressed, "960100001"],
    ["loudnorm", generateStreamCLoudnorm, "980100001"],
  ] as const)("with --mix %s, is the same stream with the streamer's shouts squeezed towards their calm talk", async (_, generate, vodId) => {
    const made = await generate({ root: path.join(synthCacheRoot(), "test-streams"), vodId, seed: SEED, durationSeconds: 360 });
    expect(made.truth.utterances).toEqual(c.utterances);
    const plain = await shoutOverCalm(cDir, c);
    const squeezed = await shoutOverCalm(made.dir, made.truth);
    expect(plain).toBeGreaterThan(3);
    expect(squeezed).toBeLessThan(plain - 2);
  }, 120_000);

  it("types source c's words and emotes in chat, never source b's", () => {
    const bWords = new Set<string>([...PALETTE_B.chat.reactions, ...PALETTE_B.chat.greetings, ...PALETTE_B.chat.questions, ...PALETTE_B.chat.promotionLines]);
    expect(chat.filter((x) => bWords.has(x.text))).toEqual([]);
    const emotes = new Set(chat.flatMap((x) => x.emotes));
    expect(emotes.size).toBeGreaterThan(0);
    for (const e of emotes) expect(Object.keys(PALETTE_C.chat.globalEmotes)).toContain(e);
  });
});

describe("the mix's master filter", () => {
  it("that FFmpeg cannot run fails the stream with FFmpeg's error, long before a test times out (it used to hang)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mix-filter-"));
    try {
      const loop = { sound: { samples: new Float32Array(48_000).fill(0.1), duration: 1 }, gainAt: () => 1 };
      const began = Date.now();
      // Ten minutes of audio: more than the pipe holds, so the writer waits on FFmpeg that has already exited.
      await expect(mixToFlac(600, [], [loop], 1, path.join(dir, "a.flac"), "nosuchfilter")).rejects.toThrow(/ffmpeg \(flac\) exited/);
      expect(Date.now() - began).toBeLessThan(20_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
