import { describe, expect, it } from "vitest";
import { ulid } from "../../worker/src/domain/ids";
import { cancelStep, completeStep, failStep, progressStep, startStep, type JobLifecycle } from "../../worker/src/orchestration/job-lifecycle";
import { normaliseParameters } from "../../worker/src/domain/parameters";
import { shortsCap } from "../../worker/src/domain/plan-caps";
import { computeCost } from "../../worker/src/domain/pricing";
import { cancelRefundCredits } from "../../worker/src/domain/refund-tiers";
import { resolveProfileSettings } from "../../worker/src/domain/normalise-request";
import { slidingWindow } from "../../worker/src/domain/sliding-window";
import { fieldPath } from "../../worker/src/lib/zod-issues";
import { searchText } from "../../worker/src/storage/jobs";
import { atAnalysis, atCompletion, billedVodSeconds } from "../../worker/src/domain/vod-length";

describe("pricing", () => {
  it("charges ceil(hours x rate) + 25 per reel + 10 per short", () => {
    const cost = computeCost({ vodDurationSeconds: 5400, modelPreset: "stable_tempo", reels: 2, shorts: 3, shortsRequested: 8 });
    expect(cost).toMatchObject({ processing_credits: 45, generation_credits: 50, shorts_credits: 30, total: 125, shorts_requested: 8 });
  });
  it("rounds partial credits up and does not round float noise up", () => {
    expect(computeCost({ vodDurationSeconds: 3601, modelPreset: "auto_balance", reels: 0, shorts: 1, shortsRequested: 1 }).processing_credits).toBe(41);
    // A reused analysis (re-cut): the processing credits are waived and said so; the outputs are charged as always.
    const reused = { from_job_id: "job_A", analysed_at: "2026-01-01T00:00:00.000Z" };
    expect(computeCost({ vodDurationSeconds: 5400, modelPreset: "stable_tempo", reels: 2, shorts: 3, shortsRequested: 3, analysisReused: reused })).toMatchObject({
      processing_credits: 0,
      processing_waived: { credits: 45, reason: "analysis_reused", from_job_id: "job_A", analysed_at: reused.analysed_at },
      total: 80,
    });
    expect(computeCost({ vodDurationSeconds: 5400, modelPreset: "stable_tempo", reels: 2, shorts: 3, shortsRequested: 3 }).processing_waived).toBeNull();
    // 1.5 h x 30 is 45.000000000000007 in floating point; that must stay 45.
    expect(computeCost({ vodDurationSeconds: 5400, modelPreset: "stable_tempo", reels: 0, shorts: 0, shortsRequested: 0 }).processing_credits).toBe(45);
  });
  it("uses each preset's rate", () => {
    const rates = (["rapid_sprint", "stable_tempo", "auto_balance", "creator_focus", "studio_polish", "director_finish"] as const).map(
      (p) => computeCost({ vodDurationSeconds: 3600, modelPreset: p, reels: 0, shorts: 0, shortsRequested: 0 }).total,
    );
    expect(rates).toEqual([20, 30, 40, 50, 70, 100]);
  });
});

describe("billing the real VOD length", () => {
  // One reel, one short: only the processing part depends on the length.
  const job = (model_preset: "rapid_sprint" | "auto_balance" | "director_finish"): Parameters<typeof atAnalysis>[0] => ({
    model_preset,
    compilation_enabled: true,
    executed_profiles: ["balanced"],
    num_shorts: 1,
    num_shorts_requested: 1,
  });
  // Written out from the price formula, not from computeCost: ceil(hours x rate).
  const processing = (seconds: number, rate: number) => Math.ceil((seconds / 3600) * rate - 1e-9);

  it("reserves the price difference of a real length beyond the tolerance, rounded as the price is", () => {
    expect(atAnalysis(job("director_finish"), 1800, 7200)).toEqual({ billedSeconds: 7200, extraCredits: processing(7200, 100) - processing(1800, 100) });
    // 3500 s and 3700 s on 20 credits/h: 20 and 21 credits (74 s tolerance: beyond it).
    expect(atAnalysis(job("rapid_sprint"), 3500, 3700)).toEqual({ billedSeconds: 3700, extraCredits: 1 });
    // Within 2 % (72 s of 1 h) or 60 s: nothing, though the hour would cost 2 more on director_finish.
    expect(atAnalysis(job("director_finish"), 3528, 3600)).toBeNull();
    expect(atAnalysis(job("director_finish"), 540, 600)).toBeNull();
    expect(atAnalysis(job("director_finish"), 539, 600)).toMatchObject({ billedSeconds: 600 });
    // Billed at or above the real length: nothing now (the refund comes at completion).
    expect(atAnalysis(job("auto_balance"), 5400, 3600)).toBeNull();
    expect(billedVodSeconds(3528, 3600)).toBe(3528);
  });

  it("refunds the price difference of a billed length above the real one, and nothing otherwise", () => {
    expect(atCompletion(job("auto_balance"), 5400, 3600)).toMatchObject({ billedSeconds: 3600, refundCredits: 20 });
    // 3600.5 s billed costs 41 on 40 credits/h, the real hour 40.
    expect(atCompletion(job("auto_balance"), 3600.5, 3600)).toMatchObject({ refundCredits: 1 });
    expect(atCompletion(job("auto_balance"), 3600, 3600)).toBeNull();
    expect(atCompletion(job("auto_balance"), 3528, 3600)).toBeNull();
  });

  it("a completion refunds undelivered outputs and a shorter VOD as two parts, never more than was reserved", () => {
    const s: JobLifecycle = {
      job_id: "job_x",
      account_id: "acct_x",
      status: "running",
      progress: 90,
      stage: "rendering_shorts",
      credit_cost: 95,
      refunded_credits: 0,
      billed_vod_seconds: 5400,
      real_vod_seconds: 3600,
      error: null,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      started_at: "2026-01-01T00:00:00.000Z",
      finished_at: null,
      artifacts_expires_at: null,
    };
    const step = completeStep(s, "2026-01-01T00:00:00.000Z", 10, { billedSeconds: 3600, refundCredits: 20, reason: "VOD shorter" });
    expect(step).toMatchObject({ ok: true, refund: 30, parts: [{ amount: 10, purpose: null }, { amount: 20, purpose: "vod_length", reason: "VOD shorter" }], next: { refunded_credits: 30, billed_vod_seconds: 3600 } });
    const capped = completeStep({ ...s, credit_cost: 25 }, "2026-01-01T00:00:00.000Z", 10, { billedSeconds: 3600, refundCredits: 20, reason: "VOD shorter" });
    expect(capped).toMatchObject({ refund: 25, parts: [{ amount: 10 }, { amount: 15 }] });
  });
});

describe("plan caps", () => {
  it("caps shorts by plan, and at 3 before any purchase", () => {
    expect([shortsCap("free", true), shortsCap("starter", true), shortsCap("pro", true), shortsCap("studio", true)]).toEqual([3, 5, 10, 10]);
    expect([shortsCap("free", false), shortsCap("starter", false), shortsCap("pro", false), shortsCap("studio", false)]).toEqual([3, 3, 3, 3]);
  });
});

describe("cancel refund tiers", () => {
  it("refunds 100/75/50/25/0 % by status and progress, rounded down", () => {
    expect(cancelRefundCredits(101, "pending", 0)).toBe(101);
    expect(cancelRefundCredits(101, "running", 0)).toBe(75);
    expect(cancelRefundCredits(101, "running", 24)).toBe(75);
    expect(cancelRefundCredits(101, "running", 25)).toBe(50);
    expect(cancelRefundCredits(101, "running", 49)).toBe(50);
    expect(cancelRefundCredits(101, "running", 50)).toBe(25);
    expect(cancelRefundCredits(101, "running", 74)).toBe(25);
    expect(cancelRefundCredits(101, "running", 75)).toBe(0);
    expect(cancelRefundCredits(101, "running", 100)).toBe(0);
  });
});

describe("job lifecycle rules", () => {
  const base: JobLifecycle = {
    job_id: "job_x",
    account_id: "acct_x",
    status: "pending",
    progress: 0,
    stage: null,
    credit_cost: 100,
    refunded_credits: 0,
    error: null,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    started_at: null,
    finished_at: null,
    artifacts_expires_at: null,
  };
  const t = "2026-01-02T00:00:00.000Z";

  it("follows pending -> running -> completed and refuses anything after the end", () => {
    const running = startStep(base, t);
    expect(running.ok && running.next.status).toBe("running");
    if (!running.ok) return;
    expect(startStep(running.next, t)).toEqual({ ok: false, reason: "invalid_transition" });
    const done = completeStep(running.next, t);
    expect(done.ok && done.next).toMatchObject({ status: "completed", progress: 100, finished_at: t, artifacts_expires_at: "2026-02-01T00:00:00.000Z" });
    if (!done.ok) return;
    for (const step of [startStep(done.next, t), progressStep(done.next, "x", 5, t), completeStep(done.next, t), failStep(done.next, { code: "e", message: "m" }, "full", t), cancelStep(done.next, t)]) {
      expect(step).toEqual({ ok: false, reason: "terminal" });
    }
  });

  it("keeps progress monotonic and clamps it to 0-100", () => {
    const a = progressStep(base, "analysing", 40.7, t);
    expect(a.ok && a.next).toMatchObject({ status: "running", progress: 40, stage: "analysing", started_at: t });
    if (!a.ok) return;
    const b = progressStep(a.next, "selecting", 10, t);
    expect(b.ok && b.next.progress).toBe(40);
    const c = progressStep(a.next, "uploading", 250, t);
    expect(c.ok && c.next.progress).toBe(100);
    expect(progressStep(a.next, "analysing", 40.2, t)).toEqual({ ok: false, reason: "unchanged" });
    expect(progressStep(a.next, "analysing", Number.NaN, t)).toEqual({ ok: false, reason: "unchanged" });
  });

  it("refunds everything on a failure and by tier on a cancel", () => {
    const failed = failStep({ ...base, status: "running", progress: 90 }, { code: "render_failed", message: "boom" }, "full", t);
    expect(failed.ok && failed.refund).toBe(100);
    expect(failed.ok && failed.next).toMatchObject({ status: "failed", refunded_credits: 100, error: { code: "render_failed" } });
    const cancelled = cancelStep({ ...base, status: "running", progress: 30 }, t);
    expect(cancelled.ok && cancelled.refund).toBe(50);
    expect(cancelled.ok && cancelled.next.error).toEqual({ code: "cancelled_by_user", message: "Cancelled by user" });
  });
});

describe("sliding window", () => {
  it("allows `limit` hits per window and says when the next one fits", () => {
    let hits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const d = slidingWindow(hits, 1000 + i * 1000, 10, 60_000);
      expect(d.allowed).toBe(true);
      hits = d.hits;
    }
    const refused = slidingWindow(hits, 20_000, 10, 60_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 41 });
    // Refusals are not recorded: at 61.001 s the first hit has left the window.
    const later = slidingWindow(refused.hits, 61_001, 10, 60_000);
    expect(later.allowed).toBe(true);
    expect(later.hits).toHaveLength(10);
  });
});

describe("profile settings", () => {
  it("splits the total runtime in proportion to each profile's own target; overrides replace a share", () => {
    const s = resolveProfileSettings(["balanced", "audience"], 18, {});
    expect(s.balanced!.target_duration_seconds + s.audience!.target_duration_seconds).toBe(1080);
    expect(s.balanced!.target_duration_seconds).toBe(600);
    const o = resolveProfileSettings(["balanced", "audience"], 18, { audience: { target_duration_minutes: 2, target_duration_seconds: 45 } });
    expect(o.audience!.target_duration_seconds).toBe(45);
    expect(o.balanced!.target_duration_seconds).toBe(600);
  });
  it("keeps each profile's own target when no total is given", () => {
    const s = resolveProfileSettings(["audience", "streamer"], null, {});
    expect([s.audience!.target_duration_seconds, s.streamer!.target_duration_seconds]).toEqual([240, 240]);
    expect([s.audience!.audience_weight, s.streamer!.streamer_weight]).toEqual([0.8, 0.8]);
  });
});

describe("parameter clamps", () => {
  it("applies defaults and the parameters' clamps", () => {
    expect(normaliseParameters(undefined)).toMatchObject({ min_highlight_duration: 20, max_highlight_duration: 60, shorts_crop_mode: "crop" });
    expect(
      normaliseParameters({
        min_highlight_duration: 500,
        max_highlight_duration: 10,
        cold_open_max_clips: 99,
        cold_open_snippet_duration: 0.5,
        shorts_split_ratio: 0.99,
        shorts_facecam_frame_color: "pink",
      }),
    ).toMatchObject({
      min_highlight_duration: 180,
      max_highlight_duration: 180,
      cold_open_max_clips: 6,
      cold_open_snippet_duration: 2,
      shorts_split_ratio: 0.85,
      shorts_facecam_frame_color: "white",
    });
    expect(normaliseParameters({ min_highlight_duration: 45, max_highlight_duration: 30, cold_open_max_clips: 1, shorts_split_ratio: 0, shorts_facecam_frame_color: "Violet" })).toMatchObject({
      max_highlight_duration: 45,
      cold_open_max_clips: 2,
      shorts_split_ratio: 0.15,
      shorts_facecam_frame_color: "violet",
    });
  });
});

describe("ids and text helpers", () => {
  it("makes 26-char ULIDs that sort in creation order within one millisecond", () => {
    const ids = Array.from({ length: 50 }, () => ulid(1_700_000_000_000));
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
    expect(ulid(1_700_000_000_001) > ids[49]!).toBe(true);
  });
  it("formats dotted field paths", () => {
    expect(fieldPath(["manual_highlights", 1, "end_seconds"])).toBe("manual_highlights[1].end_seconds");
    expect(fieldPath(["run_overrides", "audience", "audience_weight"])).toBe("run_overrides.audience.audience_weight");
    expect(fieldPath([])).toBe("body");
  });
  it("lower-cases search text with full Unicode folding", () => {
    expect(searchText(["job_1", null, "ÜBER Café", ""])).toBe("job_1\nüber café");
  });
});
