import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck, JobList, JobRecord, VideoMetadata } from "../../common/contract";
import { MAX_CREDIT_AMOUNT, MAX_CREDIT_BALANCE, MAX_PAGE } from "../../common/contract";
import { clientBucket } from "../../worker/src/lib/client-bucket";
import { accountCredits, admin, call, createAccount, expect422, expectError, FIXTURE_VODS, get, jsonInit, minimalJob, post, postJob, vodUrl, type TestAccount } from "./helpers";

/** Issue 15, items 3, 5 and 7: inputs that used to answer 500 or slip past a limit, and how problems are worded. */

let acct: TestAccount;
beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
});

async function list(query: string): Promise<JobList> {
  const res = await get(acct.api_key, `/jobs${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as JobList;
}

describe("GET /jobs search longer than D1's 50-byte LIKE pattern", () => {
  const longName = "The Extraordinarily Long Streamer Name Of Marathon Night 2026";
  const cjkGame = "東京の夜のスピードラン大会決勝戦スペシャル";
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const extra of [{ streamer_name: longName }, { game_name: cjkGame }]) {
      const res = await postJob(acct.api_key, minimalJob(extra));
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as JobAck).id);
    }
  });

  it("finds a job by a 60-byte ASCII term, any case", async () => {
    expect(new TextEncoder().encode(longName).byteLength).toBeGreaterThan(48);
    expect((await list(`?search=${encodeURIComponent(longName.toUpperCase())}`)).items.map((j) => j.id)).toEqual([ids[0]]);
  });

  it("finds a job by a CJK term of 60 bytes and by part of it", async () => {
    expect(new TextEncoder().encode(cjkGame).byteLength).toBeGreaterThan(48);
    expect((await list(`?search=${encodeURIComponent(cjkGame)}`)).items.map((j) => j.id)).toEqual([ids[1]]);
    expect((await list(`?search=${encodeURIComponent("スピードラン大会")}`)).items.map((j) => j.id)).toEqual([ids[1]]);
  });

  it("answers 200 for every allowed length up to 200 characters, in 1-, 2-, 3- and 4-byte characters", async () => {
    for (const ch of ["x", "é", "語", "😀", "%", "_"]) {
      const res = await get(acct.api_key, `/jobs?search=${encodeURIComponent(ch.repeat(200))}`);
      expect([ch, res.status]).toEqual([ch, 200]);
      expect(((await res.json()) as JobList).total).toBe(0);
    }
  });
});

describe("page bounds", () => {
  it("refuses a page beyond the bound with 422 on /jobs and /admin/accounts; the bound itself works", async () => {
    for (const page of ["461168601842738790", "9007199254740993", String(MAX_PAGE + 1), "1" + "0".repeat(400)]) {
      const jobs = await expect422(await get(acct.api_key, `/jobs?page=${page}`));
      expect(jobs.get("page")).toEqual([`must be between 1 and ${MAX_PAGE}`]);
      const accounts = await expect422(await admin("GET", `/accounts?page=${page}`));
      expect(accounts.get("page")).toEqual([`must be between 1 and ${MAX_PAGE}`]);
    }
    expect((await list(`?page=${MAX_PAGE}`)).items).toEqual([]);
    const res = await admin("GET", `/accounts?page=${MAX_PAGE}&page_size=100`);
    expect(res.status).toBe(200);
  });
});

describe("admin credit amounts", () => {
  it("refuses amounts beyond the bound and balances beyond the maximum, so every balance stays exact", async () => {
    const a = await createAccount({ credits: 0 });
    for (const amount of [MAX_CREDIT_AMOUNT + 1, -(MAX_CREDIT_AMOUNT + 1), 9007199254740991, 1e300]) {
      const detail = await expect422(await admin("POST", `/accounts/${a.account_id}/credits`, { amount }));
      expect(detail.has("amount")).toBe(true);
    }
    expect((await expect422(await admin("POST", "/accounts", { name: "x", credits: MAX_CREDIT_AMOUNT + 1 }))).has("credits")).toBe(true);
    // A balance just below the maximum (set directly: a thousand largest movements would take too long).
    await env.DB.prepare("UPDATE accounts SET credits = ? WHERE id = ?").bind(MAX_CREDIT_BALANCE - 5, a.account_id).run();
    expect((await admin("POST", `/accounts/${a.account_id}/credits`, { amount: 5 })).status).toBe(200);
    expect(await accountCredits(a.account_id)).toBe(MAX_CREDIT_BALANCE);
    const over = await expect422(await admin("POST", `/accounts/${a.account_id}/credits`, { amount: 1 }));
    expect(over.get("amount")![0]).toMatch(/exceed 1000000000000/);
    expect(await accountCredits(a.account_id)).toBe(MAX_CREDIT_BALANCE);
  });
});

describe("rate-limit buckets", () => {
  it("groups IPv6 clients by /64 and reads IPv4-mapped addresses as IPv4", () => {
    expect(clientBucket("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:0DB8:0001:0002:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(clientBucket("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientBucket("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientBucket("198.51.100.7")).toBe("198.51.100.7");
    expect(clientBucket(undefined)).toBe("unknown");
    expect(clientBucket("not an address")).toBe("unknown");
  });

  it("an IPv6 client rotating addresses inside its /64 shares one bucket; the next /64 does not", async () => {
    const prefix = `2001:db8:${(Date.now() % 0xffff).toString(16)}:15`;
    for (let i = 1; i <= 10; i++) expect((await postJob(acct.api_key, minimalJob(), `${prefix}::${i.toString(16)}`)).status).toBe(202);
    const limited = await postJob(acct.api_key, minimalJob(), `${prefix}:ffff:ffff:ffff:fffe`);
    await expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await postJob(acct.api_key, minimalJob(), `${prefix.replace(/:15$/, ":16")}::1`)).status).toBe(202);
  });
});

describe("validation messages read as one clean sentence", () => {
  const bad: [string, string][] = [
    ["/jobs?page=0", "page"],
    ["/jobs?page=abc", "page"],
    ["/jobs?page_size=101", "page_size"],
    ["/jobs?status=cancelled", "status"],
    ["/jobs?page=1&page=2", "page"],
  ];
  it.each(bad)("GET %s names %s once", async (path, field) => {
    const res = await get(acct.api_key, path);
    const err = await expectError(res, 422, "validation_failed");
    expect(err.message).toMatch(new RegExp(`^Invalid request: ${field} [a-z]`));
    expect(err.message).not.toMatch(new RegExp(`${field} ${field}\\b`));
    expect(err.message.endsWith(".")).toBe(true);
    expect(err.message.slice(0, -1)).not.toMatch(/\.\s/);
  });

  it("a manual range's wrong length is shown as sent: never rounded onto an allowed length, without float noise", async () => {
    const cases: [number, number, string][] = [
      [0, 19.999, "19.999"],
      [0.2, 20.1, "19.9"],
      [10, 15, "5"],
      [0, 180.0004, "180.0004"],
    ];
    for (const [start, end, shown] of cases) {
      const detail = await expect422(await postJob(acct.api_key, minimalJob({ num_shorts: 1, manual_highlights: [{ start_seconds: start, end_seconds: end }] })));
      expect(detail.get("manual_highlights[0].end_seconds")).toEqual([`must be 20 to 180 seconds after start_seconds, not ${shown}`]);
    }
  });

  it("a number literal beyond a double (1e400 parses as Infinity) is named as such, not as 'must be a number'", async () => {
    const body = `{"vod_url":"https://www.twitch.tv/videos/1008","vod_length_hours":1e400,"parameters":{"shorts_split_ratio":-1e400}}`;
    const res = await call("/jobs/estimate", { method: "POST", headers: { "Content-Type": "application/json", "X-API-Key": acct.api_key }, body });
    const detail = await expect422(res);
    const finite = ["must be a finite number (this one is too large to represent)"];
    expect(Object.fromEntries(detail)).toEqual({ vod_length_hours: finite, "parameters.shorts_split_ratio": finite });
  });

  it("a repeated query parameter is reported as repeated, not as the wrong type", async () => {
    const err = await expectError(await get(acct.api_key, "/jobs?page=1&page=2&status=failed"), 422, "validation_failed");
    expect(err.message).toBe("Invalid request: page must be given once.");
    const two = await expectError(await get(acct.api_key, "/jobs?page=1&page=2&page_size=0&page_size=3"), 422, "validation_failed");
    expect(two.detail).toEqual([{ field: "page", message: "must be given once" }, { field: "page_size", message: "must be given once" }]);
  });

  it("POST /jobs problems: field, then a message that does not repeat it or add a code in brackets", async () => {
    const bodies = [
      { vod_url: "https://www.twitch.tv/videos/1002" },
      { vod_url: "https://www.twitch.tv/videos/1003" },
      minimalJob({ final_video_length_minutes: 0 }),
      minimalJob({ num_shorts: 1, manual_highlights: [{ start_seconds: 10, end_seconds: 15 }] }),
      minimalJob({ num_shorts: 0, manual_highlights: [{ start_seconds: 10, end_seconds: 40 }] }),
      minimalJob({ page: 1, vod_length_hours: -1 }),
      // Two overlapping ranges for the same profile, and a profile that is not selected.
      minimalJob({ num_shorts: 3, run_profiles: ["balanced"], manual_highlights: [{ start_seconds: 10, end_seconds: 40 }, { start_seconds: 30, end_seconds: 60 }, { start_seconds: 100, end_seconds: 130, run_profiles: ["streamer"] }] }),
    ];
    const seen: string[] = [];
    for (const body of bodies) {
      const res = await postJob(acct.api_key, body);
      const err = await expectError(res, 422, "validation_failed");
      for (const d of err.detail ?? []) {
        seen.push(d.field);
        const sentence = `${d.field} ${d.message}`;
        expect(d.message, sentence).toMatch(/^(must|may|is|are|points|could|overlaps|overrides)\b/);
        expect(d.message, sentence).not.toContain(d.field.replace(/\[\d+\].*$/, ""));
        expect(d.message, sentence).not.toContain(d.field.split(".").at(-1)!.replace(/\[\d+\]$/, ""));
        expect(d.message, sentence).not.toMatch(/\((deleted|live|private|subscriber_only)\)$/);
      }
      if (err.detail?.length === 1) expect(err.message).toBe(`Invalid request: ${err.detail[0]!.field} ${err.detail[0]!.message}.`);
    }
    expect(seen).toEqual(expect.arrayContaining(["manual_highlights[1]", "manual_highlights[2].run_profiles"]));
  });
});

describe("free text: control characters and unpaired surrogates are refused, other Unicode kept as sent", () => {
  const CONTROL = "must not contain control characters (such as NUL, tab or line breaks)";
  const SURROGATE = "must be valid Unicode text (it holds an unpaired surrogate)";

  it("refuses them in every free-text field of POST /jobs, naming the field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ streamer_name: "Zo\u0000e" }, "streamer_name", CONTROL],
      [{ game_name: "Celeste\u001b[31m" }, "game_name", CONTROL],
      [{ streamer_pronouns: "she/\nher" }, "streamer_pronouns", CONTROL],
      [{ game_name: "next\u0085line" }, "game_name", CONTROL],
      [{ num_shorts: 1, manual_highlights: [{ start_seconds: 0, end_seconds: 30, label: "a\u0007b" }] }, "manual_highlights[0].label", CONTROL],
    ];
    for (const [extra, field, message] of cases) {
      const detail = await expect422(await postJob(acct.api_key, minimalJob(extra)));
      expect(Object.fromEntries(detail), field).toEqual({ [field]: [message] });
    }
    // "\ud800" can only arrive as a JSON escape; JSON.stringify writes a lone surrogate that way.
    const detail = await expect422(await postJob(acct.api_key, minimalJob({ streamer_name: "a\ud800b" })));
    expect(Object.fromEntries(detail)).toEqual({ streamer_name: [SURROGATE] });
  });

  it("stores names in any script, emoji and right-to-left text included, the same in the record and its request", async () => {
    // Directional marks (RLM), the zero-width (non-)joiner of emoji and scripts, variation selectors and the tag
    // characters of an emoji flag are text, kept as sent.
    const name = "Zoë 東京 😀 \u200fمرحبا \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}";
    const game = "👩\u200d💻 می\u200cخواهم ❤\ufe0f";
    const res = await postJob(acct.api_key, minimalJob({ streamer_name: name, game_name: game }));
    expect(res.status, await res.clone().text()).toBe(202);
    const job = (await (await get(acct.api_key, `/jobs/${((await res.json()) as JobAck).id}`)).json()) as JobRecord;
    expect([job.streamer_name, job.request.streamer_name, job.game_name]).toEqual([name, name, game]);
  });

  it("refuses invisible formatting characters (direction overrides, zero-width spaces) in every free-text field, naming the character", async () => {
    const invisible = (code: string) =>
      `must not contain invisible formatting characters such as direction overrides or zero-width spaces (it holds ${code})`;
    const before = await accountCredits(acct.account_id);
    const cases: [Record<string, unknown>, string, string][] = [
      // "Trojan Source": the override shows "gnp.exe" the other way round in a title or a file name.
      [{ streamer_name: "Zoe \u202egnp.exe" }, "streamer_name", invisible("U+202E")],
      [{ game_name: "Cel\u2066este\u2069" }, "game_name", invisible("U+2066")],
      [{ streamer_pronouns: "she\u200b/her" }, "streamer_pronouns", invisible("U+200B")],
      [{ streamer_name: "\u3164" }, "streamer_name", invisible("U+3164")],
      // Tag characters outside an emoji flag smuggle invisible ASCII (into the title writer's prompt, say).
      [{ game_name: "Tetris\u{e0069}\u{e0067}\u{e006e}" }, "game_name", invisible("U+E0069")],
      [{ streamer_name: "soft\u00adhyphen" }, "streamer_name", invisible("U+00AD")],
      [{ streamer_name: "line\u2028separator" }, "streamer_name", CONTROL],
      [{ num_shorts: 1, manual_highlights: [{ start_seconds: 0, end_seconds: 30, label: "clutch \u202dwin" }] }, "manual_highlights[0].label", invisible("U+202D")],
    ];
    for (const [extra, field, message] of cases) {
      const detail = await expect422(await postJob(acct.api_key, minimalJob(extra)));
      expect(Object.fromEntries(detail), field).toEqual({ [field]: [message] });
    }
    expect(await accountCredits(acct.account_id)).toBe(before);
    const res = await postJob(acct.api_key, minimalJob());
    const id = ((await res.json()) as JobAck).id;
    const notes = await expect422(await post(acct.api_key, `/jobs/${id}/feedback`, { positive: false, reason: "other", notes: "cut \u2067here" }));
    expect(Object.fromEntries(notes)).toEqual({ notes: [invisible("U+2067")] });
    const name = await expect422(await admin("POST", "/accounts", { name: "Acme\u202e" }));
    expect(Object.fromEntries(name)).toEqual({ name: [invisible("U+202E")] });
  });

  it("stores the social links normalised (a space or NUL used to be kept as typed and broke the description's link)", async () => {
    const res = await call("/jobs/estimate", jsonInit("POST", minimalJob({ streamer_twitch_url: "https://twitch.tv/a b", streamer_twitter_url: "HTTPS://X.com/a\u0000b" }), { "X-API-Key": acct.api_key }));
    expect(res.status, await res.clone().text()).toBe(200);
    const { request } = (await res.json()) as { request: { streamer_twitch_url: string; streamer_twitter_url: string } };
    expect([request.streamer_twitch_url, request.streamer_twitter_url]).toEqual(["https://twitch.tv/a%20b", "https://x.com/a%00b"]);
  });

  it("feedback notes may hold line breaks and tabs, nothing else of the kind", async () => {
    const res = await postJob(acct.api_key, minimalJob());
    const id = ((await res.json()) as JobAck).id;
    const vote = (notes: string) => post(acct.api_key, `/jobs/${id}/feedback`, { positive: false, reason: "other", notes });
    const detail = await expect422(await vote("bad\u0000cut"));
    expect(Object.fromEntries(detail)).toEqual({ notes: ["must not contain control characters other than tab and line breaks"] });
    // Valid: the job is only not completed yet.
    await expectError(await vote("first line\n\tsecond line"), 409, "job_not_completed");
  });

  it("refuses them in an operator's account name and credit reason", async () => {
    const detail = await expect422(await admin("POST", "/accounts", { name: "Acme\u0000" }));
    expect(Object.fromEntries(detail)).toEqual({ name: [CONTROL] });
    const reason = await expect422(await admin("POST", `/accounts/${acct.account_id}/credits`, { amount: 5, reason: "order\u001b[2J 42" }));
    expect(Object.fromEntries(reason)).toEqual({ reason: [CONTROL] });
  });
});

describe("VOD ids in vod_url", () => {
  type Estimate = { request: { vod_url: string; vod_id: string } };
  const estimate = (vod_url: string) =>
    call("/jobs/estimate", jsonInit("POST", { vod_url }, { "X-API-Key": acct.api_key }));

  it("reads leading zeros as the same VOD (they used to be sent to Twitch as another id: 'does not exist')", async () => {
    const res = await estimate(`https://www.twitch.tv/videos/000${FIXTURE_VODS.hour}`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as Estimate).request).toMatchObject({ vod_id: FIXTURE_VODS.hour, vod_url: vodUrl(FIXTURE_VODS.hour) });
    const meta = await get(acct.api_key, `/videos/metadata?vod_url=${encodeURIComponent(`https://m.twitch.tv/videos/0${FIXTURE_VODS.hour}/`)}`);
    expect(((await meta.json()) as VideoMetadata).vod_id).toBe(FIXTURE_VODS.hour);
  });

  it("keeps 64-bit ids beyond 2^53 exact and refuses ids longer than 19 digits without asking Twitch", async () => {
    const beyond = (2n ** 53n + 1n).toString();
    const probed = await expect422(await estimate(`https://www.twitch.tv/videos/${beyond}`));
    expect(probed.get("vod_url")).toEqual(["points to a VOD that does not exist (deleted or expired)"]);
    const meta = (await (await get(acct.api_key, `/videos/metadata?vod_url=${encodeURIComponent(vodUrl(beyond))}`)).json()) as VideoMetadata;
    expect([meta.vod_id, meta.reason]).toEqual([beyond, "deleted"]);
    for (const id of ["1".repeat(20), "9".repeat(400)]) {
      const detail = await expect422(await estimate(`https://www.twitch.tv/videos/${id}`));
      expect(detail.get("vod_url")).toEqual(["has a video id of more than 19 digits; Twitch video ids are at most 19 digits"]);
    }
  });
});
