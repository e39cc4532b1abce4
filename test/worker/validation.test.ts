import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { CostEstimate } from "../../common/contract";
import { createAccount, expect422, FIXTURE_VODS, get, jsonInit, minimalJob, post, postJob, vodUrl, type TestAccount } from "./helpers";
import { callWithEnv } from "./job-steps";

/**
 * Every request rule (docs/API.md, Validation rules) with a request that passes and one that fails.
 * POST /jobs/estimate runs the same validation as POST /jobs without reserving anything; a few cases also go
 * through POST /jobs itself.
 */

let pro: TestAccount;
beforeAll(async () => {
  pro = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

const estimate = (body: unknown, key = pro.api_key) => post(key, "/jobs/estimate", body);

async function ok(body: unknown, key?: string): Promise<CostEstimate> {
  const res = await estimate(body, key);
  const json = (await res.json()) as CostEstimate;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function fails(body: unknown, field: string, messagePart?: string | RegExp, key?: string): Promise<Map<string, string[]>> {
  const detail = await expect422(await estimate(body, key));
  expect([...detail.keys()], `expected a problem on ${field}`).toContain(field);
  if (messagePart !== undefined) {
    expect(detail.get(field)!.join(" | ")).toMatch(messagePart);
  }
  return detail;
}

describe("vod_url", () => {
  it("accepts Twitch VOD URLs in their usual forms", async () => {
    for (const url of [
      "https://www.twitch.tv/videos/1001",
      "https://twitch.tv/videos/1001?t=1h2m3s",
      "http://m.twitch.tv/videos/1001/",
      // Old links Twitch still redirects, the embed player's address and a paste without the scheme.
      "https://www.twitch.tv/video/1001",
      "https://www.twitch.tv/synthrunner/v/1001",
      "https://www.twitch.tv/synthrunner/video/01001",
      "https://player.twitch.tv/?video=v1001&parent=example.com",
      "https://m.twitch.tv/videos/1001",
      "twitch.tv/videos/1001",
    ]) {
      const est = await ok({ vod_url: url, vod_length_hours: 1 });
      expect(est.request.vod_url).toBe("https://www.twitch.tv/videos/1001");
      expect(est.request.vod_id).toBe("1001");
    }
  });
  it("rejects anything that is not a Twitch VOD URL, and a missing one", async () => {
    for (const url of ["https://www.youtube.com/watch?v=abc", "https://www.twitch.tv/synthrunner", "https://clips.twitch.tv/Foo", "ftp://twitch.tv/videos/1", 42]) {
      await fails({ vod_url: url, vod_length_hours: 1 }, "vod_url");
    }
    await fails({ vod_length_hours: 1 }, "vod_url", "is required");
    // Too long is one problem, not also "not a VOD URL".
    const long = await fails({ vod_url: `https://www.twitch.tv/videos/1?${"a".repeat(2048)}` }, "vod_url");
    expect(long.get("vod_url")).toEqual(["must be at most 2048 characters"]);
  });
  it.each([
    ["https://clips.twitch.tv/FunnyClipSlug", /^is a Twitch clip URL, not a VOD; send the URL of the VOD the clip was cut from/],
    ["https://www.twitch.tv/synthrunner/clip/FunnyClipSlug", /^is a Twitch clip URL, not a VOD; /],
    ["https://www.twitch.tv/synthrunner", /^is a Twitch channel URL \(its live broadcast\), not a VOD; /],
    ["https://www.twitch.tv/synthrunner/videos?filter=archives", /^is a Twitch channel's list of videos or clips, not one VOD; /],
    ["https://player.twitch.tv/?channel=synthrunner&parent=example.com", /^is a Twitch player URL of a live channel, not a VOD; /],
    ["https://www.youtube.com/watch?v=abc", /^is not a Twitch URL; only Twitch VODs are accepted/],
  ])("refuses %s naming what it is", async (url, message) => {
    await fails({ vod_url: url }, "vod_url", message);
    const res = await get(pro.api_key, `/videos/metadata?vod_url=${encodeURIComponent(url)}`);
    expect((await expect422(res)).get("vod_url")!.join()).toMatch(message);
  });
  it("stores the canonical URL of any accepted form in the job record", async () => {
    const res = await postJob(pro.api_key, minimalJob({ vod_url: `https://player.twitch.tv/?video=v${FIXTURE_VODS.hour}&parent=example.com` }));
    expect(res.status, await res.clone().text()).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const job = (await (await get(pro.api_key, `/jobs/${id}`)).json()) as { vod_url: string; vod_id: string; request: { vod_url: string } };
    expect([job.vod_url, job.vod_id, job.request.vod_url]).toEqual([vodUrl(FIXTURE_VODS.hour), FIXTURE_VODS.hour, vodUrl(FIXTURE_VODS.hour)]);
    const meta = (await (await get(pro.api_key, `/videos/metadata?vod_url=${encodeURIComponent(`twitch.tv/synthrunner/v/${FIXTURE_VODS.hour}`)}`)).json()) as { vod_url: string };
    expect(meta.vod_url).toBe(vodUrl(FIXTURE_VODS.hour));
  });
});

describe("probe of the VOD", () => {
  it("probes title and duration when vod_length_hours is absent", async () => {
    const est = await ok({ vod_url: vodUrl(FIXTURE_VODS.public) });
    expect(est.vod).toMatchObject({ title: "Speedrun Night: Any% attempts", duration_seconds: 7200, usable: true, streamer_name: "SynthRunner" });
    expect(est.breakdown.vod_hours).toBe(2);
  });
  it.each([
    [FIXTURE_VODS.deleted, "deleted", /^points to a VOD that does not exist \(deleted or expired\)$/],
    [FIXTURE_VODS.missing, "deleted", /^points to a VOD that does not exist \(deleted or expired\)$/],
    [FIXTURE_VODS.live, "live", /^points to a broadcast that is still live; retry when it has ended$/],
    [FIXTURE_VODS.private, "private", /^points to a private VOD$/],
    [FIXTURE_VODS.subscriberOnly, "subscriber_only", /^points to a VOD for subscribers only$/],
  ])("rejects VOD %s as %s, naming vod_url and the reason in one sentence", async (id, _reason, message) => {
    await fails({ vod_url: vodUrl(id) }, "vod_url", message);
    // The claim does not skip the probe: an unusable VOD is refused with a length too.
    await fails({ vod_url: vodUrl(id), vod_length_hours: 0.5 }, "vod_url", message);
  });
  it("cleans Twitch's title and names of invisible formatting and control characters (they went into titles as sent)", async () => {
    const est = await ok({ vod_url: vodUrl(FIXTURE_VODS.invisibleText) });
    const flag = "\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}";
    expect(est.vod).toMatchObject({ title: `Clutch gnp.exe run  night ${flag}`, streamer_name: "Spoofer", game_name: "Tetris" });
    const res = await postJob(pro.api_key, { vod_url: vodUrl(FIXTURE_VODS.invisibleText) });
    expect(res.status).toBe(202);
    const job = (await (await get(pro.api_key, `/jobs/${((await res.json()) as { id: string }).id}`)).json()) as { vod_title: string; streamer_name: string; game_name: string };
    expect([job.vod_title, job.streamer_name, job.game_name]).toEqual([`Clutch gnp.exe run  night ${flag}`, "Spoofer", "Tetris"]);
  });
  it("rejects a VOD longer than 24 h", async () => {
    await fails({ vod_url: vodUrl(FIXTURE_VODS.tooLong) }, "vod_url", /maximum is 24 h/);
  });
  it("still probes with vod_length_hours and bills the real length when the claim is short (issue 15, underbilling)", async () => {
    // The 2 h VOD claimed as 0.0001 h: billed 2 h, as without the claim.
    const claimed = await ok({ vod_url: vodUrl(FIXTURE_VODS.public), vod_length_hours: 0.0001, model_preset: "director_finish" });
    const probed = await ok({ vod_url: vodUrl(FIXTURE_VODS.public), model_preset: "director_finish" });
    expect(claimed.vod).toMatchObject({ duration_seconds: 7200, title: "Speedrun Night: Any% attempts" });
    expect(claimed.breakdown).toMatchObject({ vod_duration_seconds: 7200, processing_credits: 200 });
    expect(claimed.credit_cost).toBe(probed.credit_cost);
    // The estimate says which length it priced, and how the bill follows the real length.
    expect(probed.billing_note).toMatch(/^Priced on the probed length, 2\.00 h \(7200 s\)\. The job is billed for the VOD's real length, measured when the renderer opens it: /);
    expect(probed.billing_note).toContain("fails with insufficient_credits and a full refund");
    expect(probed.billing_note).toContain("refunded the difference at completion");
  });
  it("bills a claim within the tolerance (2 % or 60 s below the real length) as sent, and a longer claim as sent", async () => {
    // 1 h VOD: 60 s tolerance is below 2 % (72 s), so 3528 s (1 h - 72 s) is the shortest claim billed as sent.
    const atTolerance = await ok({ vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 3528 / 3600 });
    expect(atTolerance.breakdown.vod_duration_seconds).toBeCloseTo(3528, 6);
    const beyond = await ok({ vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 3527 / 3600 });
    expect(beyond.breakdown.vod_duration_seconds).toBe(3600);
    const longer = await ok({ vod_url: vodUrl(FIXTURE_VODS.hour), vod_length_hours: 1.5 });
    expect(longer.breakdown.vod_duration_seconds).toBe(5400);
    expect(longer.billing_note).toMatch(/^Priced on vod_length_hours, 1\.50 h \(5400 s\), above the probed 1\.00 h \(3600 s\)\./);
    expect(atTolerance.billing_note).toMatch(/^Priced on vod_length_hours, 0\.98 h \(3528 s\), within the tolerance below the probed 1\.00 h \(3600 s\)\./);
    // 10 min VOD: 2 % is 12 s, so the 60 s floor applies.
    expect((await ok({ vod_url: vodUrl(FIXTURE_VODS.short), vod_length_hours: 540 / 3600 })).breakdown.vod_duration_seconds).toBeCloseTo(540, 6);
    expect((await ok({ vod_url: vodUrl(FIXTURE_VODS.short), vod_length_hours: 539 / 3600 })).breakdown.vod_duration_seconds).toBe(600);
  });
  it("uses the claim in place of the probe only when Twitch cannot be reached", async () => {
    const broken = { TWITCH_GQL_URL: `${env.TWITCH_USHER_URL}/no-gql-here` };
    const res = await callWithEnv(broken, "/jobs/estimate", jsonInit("POST", { vod_url: vodUrl(FIXTURE_VODS.public), vod_length_hours: 0.5 }, { "X-API-Key": pro.api_key }));
    const est = (await res.json()) as CostEstimate;
    expect(res.status).toBe(200);
    expect(est.vod).toBeNull();
    expect(est.breakdown.vod_duration_seconds).toBe(1800);
    expect(est.billing_note).toMatch(/^Priced on vod_length_hours, 0\.50 h \(1800 s\), because Twitch could not be reached\. The job is billed for the VOD's real length/);
  });
  it("refuses a VOD longer than 24 h whatever length is claimed", async () => {
    await fails({ vod_url: vodUrl(FIXTURE_VODS.tooLong), vod_length_hours: 1 }, "vod_url", /of 30\.00 h; the maximum is 24 h/);
  });
  it("requires vod_length_hours > 0 and at most 24", async () => {
    await fails(minimalJob({ vod_length_hours: 0 }), "vod_length_hours", "greater than 0");
    await fails(minimalJob({ vod_length_hours: -1 }), "vod_length_hours");
    await fails(minimalJob({ vod_length_hours: 24.5 }), "vod_length_hours", "at most 24");
    await fails(minimalJob({ vod_length_hours: "2" }), "vod_length_hours", "must be a number");
    await ok(minimalJob({ vod_length_hours: 24 }));
  });
});

describe("urls and text fields", () => {
  it("says an empty URL or language code is empty (a form left blank), instead of calling it a wrong one", async () => {
    const detail = await expect422(await estimate(minimalJob({ webhook_url: "", streamer_twitch_url: " ", stream_language: "", metadata_language: "" })));
    expect(Object.fromEntries(detail)).toEqual({
      webhook_url: ["is empty; omit it (or send null) when no webhook is wanted"],
      streamer_twitch_url: ["is empty; omit it (or send null) when there is none"],
      stream_language: ["is empty; omit it (or send null) when the language is to be detected"],
      metadata_language: ["is empty; omit it (or send null) when the stream's language is wanted"],
    });
  });
  it("accepts http(s) URLs", async () => {
    const est = await ok(
      minimalJob({
        webhook_url: "https://hooks.example.com/h",
        streamer_twitch_url: "https://www.twitch.tv/synthrunner",
        streamer_twitter_url: "http://x.com/synth",
        streamer_name: "Synth",
        game_name: "Celeste",
        streamer_pronouns: "she/her",
      }),
    );
    expect(est.request).toMatchObject({ webhook_url: "https://hooks.example.com/h", streamer_pronouns: "she/her", streamer_name: "Synth" });
  });
  it("rejects other schemes and non-URLs, listing each field", async () => {
    const detail = await expect422(
      await estimate(minimalJob({ webhook_url: "ftp://hooks.example.com", streamer_twitch_url: "javascript:alert(1)", streamer_twitter_url: "not a url" })),
    );
    expect([...detail.keys()].sort()).toEqual(["streamer_twitch_url", "streamer_twitter_url", "webhook_url"]);
  });
  it("defaults pronouns to they", async () => {
    expect((await ok(minimalJob())).request.streamer_pronouns).toBe("they");
  });
});

describe("final_video_length_minutes and compilation_enabled", () => {
  it("accepts 1 to 30", async () => {
    expect((await ok(minimalJob({ final_video_length_minutes: 1 }))).request.final_video_length_minutes).toBe(1);
    expect((await ok(minimalJob({ final_video_length_minutes: 30 }))).request.final_video_length_minutes).toBe(30);
  });
  it("rejects values outside 1-30", async () => {
    await fails(minimalJob({ final_video_length_minutes: 31 }), "final_video_length_minutes");
    await fails(minimalJob({ final_video_length_minutes: 0.5 }), "final_video_length_minutes");
    await fails(minimalJob({ final_video_length_minutes: -2 }), "final_video_length_minutes");
  });
  it("allows 0 only with compilation_enabled false", async () => {
    await fails(minimalJob({ final_video_length_minutes: 0 }), "final_video_length_minutes", /compilation_enabled false/);
    const est = await ok(minimalJob({ final_video_length_minutes: 0, compilation_enabled: false, num_shorts: 2 }));
    expect(est.request.final_video_length_minutes).toBe(0);
  });
  it("requires num_shorts > 0 for a shorts-only job, which runs only the first profile and bills no reel", async () => {
    await fails(minimalJob({ compilation_enabled: false }), "num_shorts", /greater than 0/);
    await fails(minimalJob({ compilation_enabled: false, num_shorts: 0 }), "num_shorts", /greater than 0/);
    const est = await ok(minimalJob({ compilation_enabled: false, num_shorts: 2, run_profiles: ["streamer", "audience"] }));
    expect(est.request.executed_profiles).toEqual(["streamer"]);
    expect(est.request.run_profiles).toEqual(["streamer", "audience"]);
    expect(Object.keys(est.request.profile_settings)).toEqual(["streamer"]);
    expect(est.breakdown).toMatchObject({ reels: 0, generation_credits: 0, shorts: 2, shorts_credits: 20 });
  });
  it("defaults the total to the sum of the executed profiles' own targets", async () => {
    const est = await ok(minimalJob({ run_profiles: ["balanced", "audience", "streamer"] }));
    expect(est.request.final_video_length_minutes).toBe((300 + 240 + 240) / 60);
    expect(est.request.profile_settings.balanced!.target_duration_seconds).toBe(300);
    expect(est.request.profile_settings.audience!.target_duration_seconds).toBe(240);
  });
  it("splits a given total across profiles in proportion to their own targets", async () => {
    const est = await ok(minimalJob({ run_profiles: ["balanced", "audience"], final_video_length_minutes: 9 }));
    expect(est.request.profile_settings.balanced!.target_duration_seconds).toBe(300);
    expect(est.request.profile_settings.audience!.target_duration_seconds).toBe(240);
    const est2 = await ok(minimalJob({ run_profiles: ["balanced", "audience"], final_video_length_minutes: 18 }));
    expect(est2.request.profile_settings.balanced!.target_duration_seconds).toBe(600);
    expect(est2.request.profile_settings.audience!.target_duration_seconds).toBe(480);
  });
  it("rejects non-boolean compilation_enabled and burn_captions", async () => {
    await fails(minimalJob({ compilation_enabled: "false" }), "compilation_enabled", "must be a boolean");
    await fails(minimalJob({ burn_captions: 1 }), "burn_captions");
    expect((await ok(minimalJob({ burn_captions: false }))).request.burn_captions).toBe(false);
  });
});

describe("num_shorts and plan caps", () => {
  it("reports an integer too large to be exact once, as the field's range (it also said 'must be an integer')", async () => {
    const detail = await expect422(await estimate(minimalJob({ num_shorts: 1e22, parameters: { max_highlight_duration: -1e22 } })));
    expect(Object.fromEntries(detail)).toEqual({
      num_shorts: ["must be between 0 and 10"],
      "parameters.max_highlight_duration": [`must be at least ${Number.MIN_SAFE_INTEGER}`],
    });
  });
  it("accepts 0-10 and rejects other values", async () => {
    expect((await ok(minimalJob({ num_shorts: 10 }))).request.num_shorts).toBe(10);
    await fails(minimalJob({ num_shorts: 11 }), "num_shorts", "between 0 and 10");
    await fails(minimalJob({ num_shorts: -1 }), "num_shorts");
    await fails(minimalJob({ num_shorts: 2.5 }), "num_shorts", "integer");
  });
  it.each([
    ["free", true, 3],
    ["starter", true, 5],
    ["pro", true, 10],
    ["studio", true, 10],
    ["studio", false, 3],
    ["starter", false, 3],
  ] as const)("caps shorts on %s (purchased %s) at %i and bills the reduced count", async (plan, purchase, cap) => {
    const acct = await createAccount({ plan, credits: purchase ? 1000 : 0, purchase });
    const est = await ok(minimalJob({ num_shorts: 10 }), acct.api_key);
    expect(est.request.num_shorts).toBe(cap);
    expect(est.request.num_shorts_requested).toBe(10);
    expect(est.breakdown.shorts_credits).toBe(cap * 10);
  });
});

describe("model_preset and languages", () => {
  it("accepts the six presets and defaults to auto_balance", async () => {
    expect((await ok(minimalJob())).request.model_preset).toBe("auto_balance");
    expect((await ok(minimalJob({ model_preset: "director_finish" }))).breakdown.credits_per_vod_hour).toBe(100);
    await fails(minimalJob({ model_preset: "turbo" }), "model_preset", /rapid_sprint/);
  });
  it("accepts ISO 639-1 codes (any case) and rejects others", async () => {
    const est = await ok(minimalJob({ stream_language: "DE" }));
    expect(est.request).toMatchObject({ stream_language: "de", metadata_language: "de" });
    expect((await ok(minimalJob({ stream_language: "en", metadata_language: "pt" }))).request.metadata_language).toBe("pt");
    for (const code of ["eng", "xx", "english", "e"]) await fails(minimalJob({ stream_language: code }), "stream_language", /ISO 639-1/);
    await fails(minimalJob({ metadata_language: "zz" }), "metadata_language");
  });
});

describe("run_profiles and run_overrides", () => {
  it("defaults to balanced and accepts any non-empty set of the three", async () => {
    expect((await ok(minimalJob())).request.run_profiles).toEqual(["balanced"]);
    const est = await ok(minimalJob({ run_profiles: ["audience", "streamer"] }));
    expect(est.request.executed_profiles).toEqual(["audience", "streamer"]);
    expect(est.breakdown.generation_credits).toBe(50);
  });
  it("rejects empty lists, unknown names and duplicates", async () => {
    await fails(minimalJob({ run_profiles: [] }), "run_profiles", /at least one/);
    await fails(minimalJob({ run_profiles: ["balanced", "hype"] }), "run_profiles[1]");
    await fails(minimalJob({ run_profiles: ["audience", "audience"] }), "run_profiles", /twice/);
    await fails(minimalJob({ run_profiles: "balanced" }), "run_profiles", "must be an array");
  });
  it("applies overrides of selected profiles; seconds win over minutes", async () => {
    const est = await ok(
      minimalJob({
        run_profiles: ["balanced", "audience"],
        run_overrides: {
          balanced: { target_duration_minutes: 2, target_duration_seconds: 95, audience_weight: 0.9, bucket_size_seconds: 10 },
          audience: { target_duration_minutes: 7, highlight_min_score: 0.6, similarity_threshold: 0, unknown_knob: 5 },
        },
      }),
    );
    expect(est.request.profile_settings.balanced).toMatchObject({ target_duration_seconds: 95, audience_weight: 0.9, bucket_size_seconds: 10, streamer_weight: 0.5 });
    expect(est.request.profile_settings.audience).toMatchObject({ target_duration_seconds: 420, highlight_min_score: 0.6, similarity_threshold: 0 });
  });
  it("rejects overrides of profiles that are not selected or do not exist", async () => {
    const detail = await fails(minimalJob({ run_overrides: { audience: { audience_weight: 0.1 }, chaos: {} } }), "run_overrides.audience", /not selected/);
    expect(detail.get("run_overrides.chaos")!.join()).toMatch(/not a run profile/);
  });
  it("reads a profile's null entry as no override, as every optional value's null, whatever the profile", async () => {
    const est = await ok(
      minimalJob({ run_profiles: ["balanced", "audience"], run_overrides: { balanced: null, audience: { audience_weight: 0.7 }, streamer: null } }),
    );
    const plain = await ok(minimalJob({ run_profiles: ["balanced", "audience"] }));
    expect(est.request.profile_settings.balanced).toEqual(plain.request.profile_settings.balanced);
    expect(est.request.profile_settings.audience).toMatchObject({ audience_weight: 0.7 });
    expect(est.credit_cost).toBe(plain.credit_cost);
    // An entry that is not an object nor null is still refused.
    await fails(minimalJob({ run_overrides: { balanced: 5 } }), "run_overrides.balanced", "must be a JSON object");
  });
  it("accepts but ignores overrides of selected profiles that a shorts-only job does not run", async () => {
    const est = await ok(
      minimalJob({ compilation_enabled: false, num_shorts: 1, run_profiles: ["balanced", "audience"], run_overrides: { audience: { audience_weight: 1 } } }),
    );
    expect(est.request.profile_settings.audience).toBeUndefined();
  });
  it("enforces every override range", async () => {
    const detail = await expect422(
      await estimate(
        minimalJob({
          run_overrides: {
            balanced: {
              target_duration_minutes: 31,
              target_duration_seconds: 29,
              audience_weight: 1.1,
              streamer_weight: -0.1,
              similarity_threshold: 2,
              highlight_min_score: -1,
              bucket_size_seconds: 3601,
            },
          },
        }),
      ),
    );
    expect([...detail.keys()].sort()).toEqual(
      [
        "audience_weight",
        "bucket_size_seconds",
        "highlight_min_score",
        "similarity_threshold",
        "streamer_weight",
        "target_duration_minutes",
        "target_duration_seconds",
      ].map((k) => `run_overrides.balanced.${k}`),
    );
    await fails(minimalJob({ run_overrides: { balanced: { target_duration_seconds: 60.5 } } }), "run_overrides.balanced.target_duration_seconds", "integer");
    await ok(minimalJob({ run_overrides: { balanced: { target_duration_seconds: 1800, bucket_size_seconds: 1, audience_weight: 0, streamer_weight: 1 } } }));
  });
});

describe("parameters", () => {
  it("ignores unknown keys and clamps out-of-range values", async () => {
    const est = await ok(
      minimalJob({
        parameters: {
          min_highlight_duration: 300,
          max_highlight_duration: 400,
          cold_open_enabled: true,
          cold_open_max_clips: 1,
          cold_open_snippet_duration: 20,
          shorts_split_ratio: 0.05,
          shorts_crop_mode: "split",
          shorts_facecam_frame_enabled: true,
          shorts_facecam_frame_color: "neon-green",
          background_music: "epic.mp3",
        },
      }),
    );
    expect(est.request.parameters).toEqual({
      min_highlight_duration: 180,
      max_highlight_duration: 180,
      cold_open_enabled: true,
      cold_open_max_clips: 2,
      cold_open_snippet_duration: 10,
      reel_title_card_enabled: false,
      shorts_title_card_enabled: true,
      shorts_crop_mode: "split",
      shorts_split_ratio: 0.15,
      shorts_facecam_frame_enabled: true,
      shorts_facecam_frame_color: "white",
      caption_style: "plain",
      mask_profanity: true,
      chat_overlay: "off",
      reel_chat_overlay: false,
    });
  });
  it("takes the chat overlay's style and the reels' switch at the same price, and rejects an unknown style or a non-boolean", async () => {
    const plain = await ok(minimalJob({}));
    const est = await ok(minimalJob({ parameters: { chat_overlay: "bubbles", reel_chat_overlay: true } }));
    expect(est.request.parameters).toMatchObject({ chat_overlay: "bubbles", reel_chat_overlay: true });
    expect(est.credit_cost).toBe(plain.credit_cost);
    expect((await ok(minimalJob({ parameters: { chat_overlay: null } }))).request.parameters.chat_overlay).toBe("off");
    const detail = await expect422(await estimate(minimalJob({ parameters: { chat_overlay: "ticker", reel_chat_overlay: "yes" } })));
    expect([...detail.keys()].sort()).toEqual(["parameters.chat_overlay", "parameters.reel_chat_overlay"]);
    expect(detail.get("parameters.chat_overlay")!.join()).toMatch(/"off", "panel", "bubbles"/);
  });
  it("takes the caption style and the profanity masking option, and rejects an unknown style or a non-boolean", async () => {
    const est = await ok(minimalJob({ parameters: { caption_style: "word_highlight", mask_profanity: false } }));
    expect(est.request.parameters).toMatchObject({ caption_style: "word_highlight", mask_profanity: false });
    const detail = await expect422(await estimate(minimalJob({ parameters: { caption_style: "karaoke", mask_profanity: "no" } })));
    expect([...detail.keys()].sort()).toEqual(["parameters.caption_style", "parameters.mask_profanity"]);
    expect(detail.get("parameters.caption_style")!.join()).toMatch(/"plain", "word_highlight"/);
  });
  it("raises max_highlight_duration to min_highlight_duration", async () => {
    const est = await ok(minimalJob({ parameters: { min_highlight_duration: 50, max_highlight_duration: 30 } }));
    expect(est.request.parameters).toMatchObject({ min_highlight_duration: 50, max_highlight_duration: 50 });
  });
  it("keeps a valid frame colour", async () => {
    expect((await ok(minimalJob({ parameters: { shorts_facecam_frame_color: "violet" } }))).request.parameters.shorts_facecam_frame_color).toBe("violet");
  });
  it("still rejects wrong types, a crop mode outside crop|fit|split and a minimum below 1", async () => {
    const detail = await expect422(
      await estimate(
        minimalJob({
          parameters: {
            min_highlight_duration: "abc",
            cold_open_enabled: "yes",
            shorts_crop_mode: "stretch",
            shorts_split_ratio: "half",
            shorts_facecam_frame_color: 7,
          },
        }),
      ),
    );
    expect([...detail.keys()].sort()).toEqual(
      ["cold_open_enabled", "min_highlight_duration", "shorts_crop_mode", "shorts_facecam_frame_color", "shorts_split_ratio"].map((k) => `parameters.${k}`),
    );
    expect(detail.get("parameters.shorts_crop_mode")!.join()).toMatch(/"crop", "fit", "split"/);
    await fails(minimalJob({ parameters: { min_highlight_duration: 0 } }), "parameters.min_highlight_duration", "at least 1");
    await fails(minimalJob({ parameters: "fast" }), "parameters", "JSON object");
  });
});

describe("manual_highlights", () => {
  const short = vodUrl(FIXTURE_VODS.short); // 600 s long
  const range = (start: number, end: number, extra: Record<string, unknown> = {}) => ({ start_seconds: start, end_seconds: end, ...extra });

  it("accepts ranges of 20-180 s inside the VOD, resolving their profiles", async () => {
    const est = await ok({
      vod_url: short,
      num_shorts: 3,
      run_profiles: ["balanced", "audience"],
      manual_highlights: [range(0, 20, { label: "opener" }), range(400, 580, { run_profiles: ["audience"] }), range(410, 440, { run_profiles: ["balanced"] })],
    });
    expect(est.request.manual_highlights).toEqual([
      { start_seconds: 0, end_seconds: 20, label: "opener", run_profiles: ["balanced", "audience"] },
      { start_seconds: 400, end_seconds: 580, label: null, run_profiles: ["audience"] },
      { start_seconds: 410, end_seconds: 440, label: null, run_profiles: ["balanced"] },
    ]);
  });
  it("rejects ranges shorter than 20 s, longer than 180 s or reversed", async () => {
    const detail = await expect422(
      await estimate({ vod_url: short, num_shorts: 3, manual_highlights: [range(0, 19.5), range(100, 281), range(300, 250)] }),
    );
    for (const i of [0, 1, 2]) expect(detail.get(`manual_highlights[${i}].end_seconds`)!.join()).toMatch(/20 to 180 seconds/);
  });
  it("rejects a range past the end of the VOD (probed or given)", async () => {
    await fails({ vod_url: short, num_shorts: 1, manual_highlights: [range(590, 620)] }, "manual_highlights[0].end_seconds", /within the VOD \(600 s/);
    // The real length counts, not a shorter claim: the 10 min VOD claimed as 6 min still takes a range up to 600 s.
    await ok({ vod_url: short, vod_length_hours: 0.1, num_shorts: 1, manual_highlights: [range(550, 600)] });
    await fails({ vod_url: short, vod_length_hours: 0.1, num_shorts: 1, manual_highlights: [range(580, 620)] }, "manual_highlights[0].end_seconds", /600 s/);
  });
  it("rejects negative starts and more than 10 entries", async () => {
    await fails({ vod_url: short, num_shorts: 1, manual_highlights: [range(-5, 20)] }, "manual_highlights[0].start_seconds");
    const eleven = Array.from({ length: 11 }, (_, i) => range(i * 30, i * 30 + 25));
    await fails({ vod_url: short, num_shorts: 10, manual_highlights: eleven }, "manual_highlights", "at most 10");
  });
  it("rejects profiles outside the selected ones", async () => {
    await fails(
      { vod_url: short, num_shorts: 1, run_profiles: ["balanced"], manual_highlights: [range(0, 30, { run_profiles: ["streamer"] })] },
      "manual_highlights[0].run_profiles",
      /not selected: streamer/,
    );
  });
  it("allows overlaps only between entries that share no profile", async () => {
    const profiles = ["balanced", "audience"];
    await ok({
      vod_url: short,
      num_shorts: 2,
      run_profiles: profiles,
      manual_highlights: [range(100, 160, { run_profiles: ["balanced"] }), range(120, 180, { run_profiles: ["audience"] })],
    });
    await fails(
      {
        vod_url: short,
        num_shorts: 2,
        run_profiles: profiles,
        manual_highlights: [range(100, 160, { run_profiles: ["balanced"] }), range(120, 180)],
      },
      "manual_highlights[1]",
      /^overlaps entry 0 \(100-160 s\) and both apply to balanced;/,
    );
    // Touching ends are not an overlap.
    await ok({ vod_url: short, num_shorts: 2, manual_highlights: [range(100, 130), range(130, 160)] });
  });
  it("needs one short slot per manual highlight, counted after the plan cap", async () => {
    await fails({ vod_url: short, num_shorts: 1, manual_highlights: [range(0, 30), range(60, 90)] }, "manual_highlights", /num_shorts is 1/);
    const free = await createAccount({ plan: "free", credits: 1000, purchase: true });
    const four = [0, 60, 120, 180].map((s) => range(s, s + 30));
    await fails({ vod_url: short, num_shorts: 10, manual_highlights: four }, "manual_highlights", /num_shorts is 3 after the plan cap of 3/, free.api_key);
    await ok({ vod_url: short, num_shorts: 10, manual_highlights: four.slice(0, 3) }, free.api_key);
  });
});

describe("one 422 lists every problem", () => {
  it("reports schema, cross-field and context problems together with dotted paths", async () => {
    const res = await postJob(pro.api_key, {
      vod_url: vodUrl(FIXTURE_VODS.short),
      final_video_length_minutes: 0,
      num_shorts: "three",
      model_preset: "nope",
      run_profiles: ["balanced"],
      run_overrides: { audience: { audience_weight: 3 } },
      manual_highlights: [{ start_seconds: 0, end_seconds: 30 }, { start_seconds: 10, end_seconds: 5 }, { start_seconds: 580, end_seconds: 610 }],
    });
    const detail = await expect422(res);
    expect([...detail.keys()].sort()).toEqual(
      [
        "final_video_length_minutes",
        "manual_highlights[1].end_seconds",
        "manual_highlights[2].end_seconds",
        "model_preset",
        "num_shorts",
        "run_overrides.audience",
        "run_overrides.audience.audience_weight",
        "manual_highlights[1]",
      ].sort(),
    );
  });
  it("rejects a body that is not an object", async () => {
    for (const body of [[1, 2], "job", 12, null]) {
      const detail = await expect422(await estimate(body));
      expect(detail.get("body")).toEqual(["must be a JSON object"]);
    }
  });
});
