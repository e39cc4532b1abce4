import { describe, expect, it } from "vitest";
import { JobPlan, unitTasks } from "../../../common/contract/job-plan";
import type { RenderJob } from "../../../common/contract/render";
import type { ChatComment } from "../../../common/twitch";
import { buildJobPlan, type Analysis } from "../../../render-container/src/pipeline/build-plan";
import { buildRenderPlan } from "../../../render-container/src/pipeline/render-plan";
import { snapWindows } from "../../../render-container/src/pipeline/snap-windows";
import { facecamSampleSegments, widerFacecamSample } from "../../../render-container/src/pipeline/stages/decide-facecam";
import { momentIds, type WrittenTexts } from "../../../render-container/src/pipeline/stages/write-texts";
import { refineMoments } from "../../../render-container/src/selection";
import type { Moment } from "../../../render-container/src/selection/types";
import { moment, normalizedRequest } from "./plan-fixtures";

const limits = { durationSeconds: 1000, formatSwitches: [] as number[], minDuration: 20, maxDuration: 60 };

describe("snapWindows", () => {
  it("gives each automatic moment the VOD up to the middle of the gap to its neighbours, and the request's durations", () => {
    const ms = [moment(100, 130, 0.5), moment(134, 170, 0.5), moment(400, 430, 0.5)];
    expect(snapWindows(ms, limits)).toEqual([
      { min_start: 0, max_end: 132, min_duration: 20, max_duration: 60 },
      { min_start: 132, max_end: 285, min_duration: 20, max_duration: 60 },
      { min_start: 285, max_end: 1000, min_duration: 20, max_duration: 60 },
    ]);
  });

  it("leaves manual highlights where the client put them (null), and lets a neighbour use the whole gap up to them", () => {
    const ms = [moment(100, 130, 0.5), moment(131, 160, 0.5, { source: "manual" }), moment(162, 200, 0.5)];
    const [a, manual, b] = snapWindows(ms, limits);
    expect(manual).toBeNull();
    expect(a).toMatchObject({ min_start: 0, max_end: 131 });
    expect(b).toMatchObject({ min_start: 160, max_end: 1000 });
  });

  it("keeps touching moments apart where they touch, and every edge on its side of a format switch", () => {
    const ms = [moment(100, 130, 0.5), moment(130, 160, 0.5)];
    const [a, b] = snapWindows(ms, { ...limits, formatSwitches: [95, 165, 500] });
    expect(a).toMatchObject({ min_start: 95, max_end: 130 });
    expect(b).toMatchObject({ min_start: 130, max_end: 165 });
  });

  it("answers in the order given, whatever it is", () => {
    const ms = [moment(400, 430, 0.5), moment(100, 130, 0.5)];
    expect(snapWindows(ms, limits).map((w) => [w!.min_start, w!.max_end])).toEqual([[265, 1000], [0, 265]]);
  });

  it("never lets two moments that snap independently overlap, wherever the scene cuts are", () => {
    // Random reels and random cuts: each moment snapped alone inside its window (as its render task does) with
    // today's rule (refineMoments for one moment) never overlaps another snapped moment of its reel.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 300; run++) {
      const ms: Moment[] = [];
      let t = rnd() * 10;
      for (let i = 0; i < 6; i++) {
        const len = 20 + rnd() * 30;
        ms.push(moment(t, t + len, 0.5, { peak: t + len / 2, source: rnd() < 0.2 ? "manual" : "auto" }));
        t += len + (rnd() < 0.5 ? 0 : rnd() * 6);
      }
      const cuts = Array.from({ length: 40 }, () => rnd() * (t + 10)).sort((a, b) => a - b);
      const windows = snapWindows(ms, { ...limits, durationSeconds: t + 10 });
      const snapped = ms.map((m, i) => {
        const w = windows[i];
        if (!w) return m;
        const [r] = refineMoments([m], cuts, { minDuration: w.min_duration, maxDuration: w.max_duration, durationSeconds: t + 10 }, () => ({ start: w.min_start, end: w.max_end }));
        return r!;
      });
      for (let i = 1; i < snapped.length; i++) expect(snapped[i]!.start, `run ${run}`).toBeGreaterThanOrEqual(snapped[i - 1]!.end - 1e-9);
      windows.forEach((w, i) => {
        if (!w) return;
        expect(w.min_start).toBeLessThanOrEqual(ms[i]!.start);
        expect(w.max_end).toBeGreaterThanOrEqual(ms[i]!.end);
      });
    }
  });
});

describe("facecamSampleSegments", () => {
  const playlist = { segments: Array.from({ length: 100 }, (_, i) => ({ uri: `${i}.ts`, duration: 10, start: i * 10, index: i, muted: false })) };

  it("takes every segment covering the ranges when there are few", () => {
    expect(facecamSampleSegments(playlist, [{ start: 95, end: 121 }, { start: 500, end: 505 }]).map((s) => s.index)).toEqual([9, 10, 11, 12, 50]);
  });

  it("spreads a fixed number over them in VOD order when there are many", () => {
    const picked = facecamSampleSegments(playlist, [{ start: 0, end: 200 }, { start: 600, end: 800 }], 6).map((s) => s.index);
    expect(picked).toHaveLength(6);
    expect(picked).toEqual([...picked].sort((a, b) => a - b));
    expect(picked.filter((i) => i < 20)).toHaveLength(3);
    expect(picked.filter((i) => i >= 60)).toHaveLength(3);
  });

  it("looks again across the whole VOD, at segments not fetched yet, when the first look said too little", () => {
    const first = facecamSampleSegments(playlist, [{ start: 95, end: 121 }]);
    const wider = widerFacecamSample(playlist, first, 6).map((s) => s.index);
    expect(wider).toHaveLength(6);
    expect(wider.filter((i) => first.some((s) => s.index === i))).toEqual([]);
    expect(Math.min(...wider)).toBeLessThan(20);
    expect(Math.max(...wider)).toBeGreaterThan(80);
  });
});

describe("buildJobPlan", () => {
  const job = (changes: Parameters<typeof normalizedRequest>[0]): RenderJob => ({
    job_id: "job_plan",
    request: normalizedRequest(changes),
    vod: { vod_id: "1", title: "t", duration_seconds: 1000, streamer_login: null, streamer_display_name: null, game_name: null, created_at: null, language: null },
    callback: { url: "about:blank", token: "" },
    upload: { mode: "worker", url: "about:blank", token: "" },
    twitch: { gql_url: "about:blank", usher_url: "about:blank" },
  });
  const textsFor = (momentsByProfile: Analysis["chosen"]["momentsByProfile"], shorts: Moment[], shortCount: number): Analysis["texts"] => {
    const ids = momentIds({ momentsByProfile, shorts });
    return {
      ids,
      texts: {
        reels: Object.fromEntries(Object.keys(momentsByProfile).map((p) => [p, { title: `${p} reel`, description: `about ${p}`, tags: [p] }])),
        shorts: Object.fromEntries(Array.from({ length: shortCount }, (_, i) => [i + 1, { title: `short ${i + 1}`, description: "d", tags: ["s"] }])),
        moments: new Map([...ids.entries()].map(([m, id]) => [m, { title: `title ${id}`, story: `story ${id}` }])),
      },
      document: { language: "en", reels: [], shorts: [], moments: [], warnings: [], source: { vod_id: "1" } } as unknown as WrittenTexts["document"],
      warnings: [],
    };
  };
  const analysis = (request: Parameters<typeof normalizedRequest>[0], momentsByProfile: Analysis["chosen"]["momentsByProfile"], shorts: Moment[]): Analysis => {
    const j = job(request);
    const render = buildRenderPlan(j.request, momentsByProfile, shorts);
    return {
      job: j,
      source: { durationSeconds: 1000, videoRendition: "chunked", formatSwitches: [], frameRate: 60 },
      languages: { stream: "en", metadata: "en" },
      captions: { burn: true, language: "en" },
      chosen: { momentsByProfile, shorts, warnings: ["w1"] },
      render,
      texts: textsFor(momentsByProfile, shorts, render.shorts.length),
      facecam: null,
      comments: chat,
      warnings: ["w1"],
    };
  };
  const comment = (at: number, text: string): ChatComment => ({ id: `c${at}`, offset_seconds: at, commenter_login: "v", commenter_name: "V", text, emote_count: 0, fragments: [] });
  // Swearing in chat during the balanced moment at 300-340 (and its reaction tail), and long after it.
  const chat = [comment(310, "what the FUCK"), comment(345, "holy shit lol"), comment(346, "fuck fuck"), comment(700, "damn")];

  const balanced = [moment(100, 130, 0.6, { peak: 120 }), moment(300, 340, 0.9, { peak: 330 }), moment(500, 525, 0.7, { peak: 502 })];
  const audience = [moment(200, 230, 0.8, { profile: "audience", peak: 215 }), moment(600, 640, 0.4, { profile: "audience", source: "manual" })];
  const shortOf = (m: Moment): Moment => ({ ...m, start: m.peak - 10, end: m.peak + 10 });

  it("plans one task per moment and a join per reel, teasers first (best first) inside the moments they come from", () => {
    const shorts = [shortOf(balanced[1]!), audience[1]!];
    const a = analysis(
      { run_profiles: ["balanced", "audience"], executed_profiles: ["balanced", "audience"], num_shorts: 2, parameters: { cold_open_enabled: true, cold_open_max_clips: 2, reel_title_card_enabled: true, shorts_title_card_enabled: true } },
      { balanced, audience },
      shorts,
    );
    const plan = buildJobPlan(a);
    expect(JobPlan.parse(plan)).toEqual(plan);
    // What the editor timelines need at finalise: the VOD as requested and its rendition's frame rate.
    expect(plan.source).toMatchObject({ vod_url: a.job.request.vod_url, frame_rate: 60 });
    expect(unitTasks(plan.tasks).map((t) => t.id).sort()).toEqual(["reel-audience-join", "reel-audience-m01", "reel-audience-m02", "reel-balanced-join", "reel-balanced-m01", "reel-balanced-m02", "reel-balanced-m03", "short-01", "short-02"]);
    // Each short lies in a reel moment's stretch: the two are one task, downloading that stretch once. The
    // heaviest task comes first, the joins last, each waiting for the tasks that make its parts.
    expect(plan.tasks.map((t) => (t.kind === "clip_group" ? t.members.map((m) => m.id) : t.id))).toEqual([
      ["reel-audience-m02", "short-02"],
      ["reel-balanced-m02", "short-01"],
      "reel-audience-m01",
      "reel-balanced-m01",
      "reel-balanced-m03",
      "reel-balanced-join",
      "reel-audience-join",
    ]);
    const group = plan.tasks.find((t) => t.kind === "clip_group" && t.members.some((m) => m.id === "short-01"))!;
    expect(group).toMatchObject({ id: "clips-01", expected_encode_seconds: 43 + 50 });
    const tasks = Object.fromEntries(unitTasks(plan.tasks).map((t) => [t.id, t]));
    // Balanced teasers: best first (0.9 at 330, then 0.7 at 502) at positions 0 and 1, then the moments in time order.
    expect(tasks["reel-balanced-m02"]).toMatchObject({ position: 3, teasers: [{ position: 0, start: 328.5, end: 331.5 }] });
    expect(tasks["reel-balanced-m03"]).toMatchObject({ position: 4, teasers: [{ position: 1, start: 500.5, end: 503.5 }] });
    expect(tasks["reel-balanced-m01"]).toMatchObject({ position: 2, teasers: [], expected_encode_seconds: 30 });
    expect(tasks["reel-balanced-m02"]!.expected_encode_seconds).toBeCloseTo(43, 6);
    expect(tasks["reel-balanced-join"]).toMatchObject({ kind: "reel_join", depends_on: ["reel-balanced-m01", "clips-01", "reel-balanced-m03"], pieces: 5, thumbnail_at: 1, title: "balanced reel" });
    // Title cards carry the moment's title; the manual moment keeps its range.
    expect(tasks["reel-audience-m02"]).toMatchObject({ snap: null, title_text: expect.stringMatching(/^title m/) });
    expect(tasks["reel-audience-m01"]).toMatchObject({ snap: { min_start: 0, max_end: 600 } });
    expect(tasks["short-01"]).toMatchObject({ kind: "short", index: 1, start: 320, end: 340, peak: 330, snap: true, title_text: "short 1", expected_encode_seconds: 50 });
    expect(tasks["short-02"]).toMatchObject({ snap: false, start: 600, end: 640 });
  });

  it("gives each moment the profane words chat typed during it (what a short's captions need to show one)", () => {
    const plan = buildJobPlan(analysis({ run_profiles: ["balanced"], executed_profiles: ["balanced"], num_shorts: 0 }, { balanced }, []));
    expect(plan.moments.map((m) => [m.start, m.chat_profanity])).toEqual([
      [100, []],
      [300, ["fuck", "shit"]],
      [500, []],
    ]);
  });

  it("lists every moment with its texts once, marking the profiles' moments as highlights", () => {
    const manualShort = audience[1]!;
    const plan = buildJobPlan(analysis({ run_profiles: ["balanced", "audience"], executed_profiles: ["balanced", "audience"], num_shorts: 2 }, { balanced, audience }, [shortOf(balanced[0]!), manualShort]));
    expect(plan.moments.map((m) => m.id)).toEqual(["m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(plan.moments.filter((m) => m.highlight)).toHaveLength(5);
    // The manual short is its profile's very moment; the automatic short is a window of its own.
    expect(plan.shorts).toEqual([
      { index: 1, moment_id: "m6", title: "short 1", description: "d", tags: ["s"] },
      { index: 2, moment_id: "m5", title: "short 2", description: "d", tags: ["s"] },
    ]);
    expect(plan.moments.find((m) => m.id === "m6")).toMatchObject({ highlight: false, start: 110, end: 130, title: "title m6", story: "story m6" });
    expect(plan.reels.map((r) => [r.run_name, r.moment_ids])).toEqual([["balanced", ["m1", "m2", "m3"]], ["audience", ["m4", "m5"]]]);
    // No cold open, no title cards: the first moment's peak makes the thumbnail, and nothing is drawn over the pieces.
    const join = plan.tasks.find((t) => t.id === "reel-balanced-join");
    expect(join).toMatchObject({ thumbnail_at: 20, pieces: 3 });
    expect(unitTasks(plan.tasks).filter((t) => t.kind === "reel_moment").every((t) => t.kind === "reel_moment" && t.title_text === null && t.teasers.length === 0)).toBe(true);
    expect(unitTasks(plan.tasks).filter((t) => t.kind === "short").every((t) => t.kind === "short" && t.title_text === null)).toBe(true);
  });

  it("plans only shorts when compilation is disabled", () => {
    const plan = buildJobPlan(analysis({ compilation_enabled: false, num_shorts: 1 }, { balanced }, [shortOf(balanced[1]!)]));
    expect(plan.tasks.map((t) => t.kind)).toEqual(["short"]);
    expect(plan.reels).toEqual([]);
    expect(plan.moments.filter((m) => m.highlight)).toHaveLength(3);
  });

  it("writes the facecam into the plan and into metadata.json", () => {
    const a = analysis({ num_shorts: 1, parameters: { shorts_crop_mode: "split" } }, { balanced }, [shortOf(balanced[1]!)]);
    const configured = buildJobPlan({ ...a, facecam: { region: { x: 0.7, y: 0.7, w: 0.3, h: 0.3 }, found: "configured", confidence: null, frames: 0, reason: "set" } });
    expect(configured.facecam).toEqual({ x: 0.7, y: 0.7, w: 0.3, h: 0.3, found: "configured", confidence: 1 });
    expect(configured.metadata.render).toEqual({ facecam: { x: 0.7, y: 0.7, w: 0.3, h: 0.3, found: "configured", confidence: null } });
    expect(buildJobPlan(a).metadata.render).toBeUndefined();
  });

  it("carries each clip's chat in the plan when chat_overlay is on (and the reels' with reel_chat_overlay), none when off", () => {
    const shorts = [shortOf(balanced[1]!)];
    const off = buildJobPlan(analysis({ num_shorts: 1 }, { balanced }, shorts));
    expect(unitTasks(off.tasks).some((t) => "chat" in t)).toBe(false);

    const on = buildJobPlan(analysis({ num_shorts: 1, parameters: { chat_overlay: "bubbles" } }, { balanced }, [balanced[1]!]));
    const tasks = unitTasks(on.tasks);
    const short = tasks.find((t) => t.kind === "short")!;
    // The short is 300-340: its chat reaches as far as its edges may snap (1.5 s), nothing after.
    expect(short.kind === "short" && short.chat).toEqual([{ at: 310, name: "V", color: null, fragments: [{ text: "what the FUCK", emote_id: null }] }]);
    expect(tasks.filter((t) => t.kind === "reel_moment").every((t) => !("chat" in t))).toBe(true);

    const reels = buildJobPlan(analysis({ num_shorts: 1, parameters: { chat_overlay: "panel", reel_chat_overlay: true } }, { balanced }, shorts));
    const moment300 = unitTasks(reels.tasks).find((t) => t.kind === "reel_moment" && t.start === 300)!;
    expect(moment300.kind === "reel_moment" && moment300.chat?.map((l) => [l.at, l.fragments.map((f) => f.text).join("")])).toEqual([
      [310, "what the FUCK"],
      [345, "holy shit lol"],
      [346, "fuck fuck"],
    ]);
  });

  it("refuses a plan the Worker could not read", () => {
    const a = analysis({ num_shorts: 1 }, { balanced }, [shortOf(balanced[1]!)]);
    expect(() => buildJobPlan({ ...a, source: { ...a.source, durationSeconds: Number.NaN } })).toThrow();
  });
});
