import { beforeAll, describe, expect, it } from "vitest";
import type { JobAck, JobList, JobRecord } from "../../common/contract";
import { completeAtOnce, failJob } from "./drive-job";
import { startedJob } from "./job-steps";
import { createAccount, expect422, expectError, FIXTURE_VODS, get, minimalJob, postJob, vodUrl, type TestAccount } from "./helpers";

let acct: TestAccount;
let other: TestAccount;
/** Oldest first, as created. */
const ids: string[] = [];

async function create(body: Record<string, unknown>, key = acct.api_key): Promise<string> {
  const res = await postJob(key, body);
  expect(res.status).toBe(202);
  return ((await res.json()) as JobAck).id;
}

beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
  other = await createAccount({ plan: "pro", credits: 10_000, purchase: true });
  // The first three are dispatched to the renderer double and moved on by its reports (drive-job.ts).
  // 0: probed public VOD (title "Speedrun Night: Any% attempts", SynthRunner, Celeste); running
  const running = await startedJob(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.public) });
  ids.push(running.ack.id);
  // 1: probed short VOD with Unicode names (Café Chat Über Alles, Zoë, Just Chatting); completed
  const completed = await startedJob(acct.api_key, { vod_url: vodUrl(FIXTURE_VODS.short) });
  ids.push(completed.ack.id);
  // 2: names from the request, no probe; a literal % and _ in the names; failed
  const failed = await startedJob(acct.api_key, minimalJob({ streamer_name: "100%_Pure", game_name: "Hollow Knight" }));
  ids.push(failed.ack.id);
  // 3..24: filler jobs for paging
  for (let i = 0; i < 22; i++) ids.push(await create(minimalJob({ streamer_name: `Filler ${i}` })));
  await completeAtOnce(completed.render);
  await failJob(failed.render, { code: "render_failed", message: "boom" });
  // Another account's job must never show up.
  await create({ vod_url: vodUrl(FIXTURE_VODS.public), streamer_name: "SynthRunner" }, other.api_key);
  // 26 jobs created one after another: beyond the default 10 s on a loaded machine (it timed out at a load of 30).
}, 60_000);

async function list(query: string, key = acct.api_key): Promise<JobList> {
  const res = await get(key, `/jobs${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as JobList;
}

describe("GET /jobs", () => {
  it("pages newest first with page_size 20 by default", async () => {
    const first = await list("");
    expect(first).toMatchObject({ page: 1, page_size: 20, total: 25, has_more: true });
    expect(first.items.map((j) => j.id)).toEqual([...ids].reverse().slice(0, 20));
    const second = await list("?page=2");
    expect(second).toMatchObject({ page: 2, page_size: 20, total: 25, has_more: false });
    expect(second.items.map((j) => j.id)).toEqual([...ids].reverse().slice(20));
    const beyond = await list("?page=9");
    expect(beyond).toMatchObject({ items: [], total: 25, has_more: false });
  });

  it("honours page_size up to 100", async () => {
    expect((await list("?page_size=100")).items).toHaveLength(25);
    const small = await list("?page_size=7&page=3");
    expect(small.items.map((j) => j.id)).toEqual([...ids].reverse().slice(14, 21));
    expect(small.has_more).toBe(true);
  });

  it("items are full job records", async () => {
    const item = (await list("?page_size=100")).items.find((j) => j.id === ids[0])!;
    const single = (await (await get(acct.api_key, `/jobs/${ids[0]}`)).json()) as JobRecord;
    expect(item).toEqual(single);
    expect(Object.keys(item).sort()).toEqual(
      [
        "id", "analysis_reused", "status", "progress", "stage", "vod_url", "vod_id", "vod_title", "vod_duration_seconds", "streamer_name", "game_name",
        "request", "billed_vod_seconds", "credit_cost", "refunded_credits", "error", "webhook_url", "created_at", "updated_at", "started_at", "finished_at",
        "artifacts_expires_at", "links",
      ].sort(),
    );
    expect(item.links).toEqual({ self: `/jobs/${ids[0]}`, results: `/jobs/${ids[0]}/results`, cancel: `/jobs/${ids[0]}/cancel` });
  });

  it("filters by status", async () => {
    expect((await list("?status=running")).items.map((j) => j.id)).toEqual([ids[0]]);
    expect((await list("?status=completed")).items.map((j) => j.id)).toEqual([ids[1]]);
    expect((await list("?status=failed")).items.map((j) => j.id)).toEqual([ids[2]]);
    expect((await list("?status=pending")).total).toBe(22);
  });

  it("searches id, vod_url, title, streamer and game case-insensitively (also beyond ASCII)", async () => {
    const found = async (q: string) => (await list(`?page_size=100&search=${encodeURIComponent(q)}`)).items.map((j) => j.id);
    expect(await found("speedrun NIGHT")).toEqual([ids[0]]);
    expect(await found("synthrunner")).toEqual([ids[0]]);
    expect(await found("celeste")).toEqual([ids[0]]);
    expect(await found("videos/1007")).toEqual([ids[1]]);
    expect(await found("ÜBER")).toEqual([ids[1]]);
    expect(await found("zoË")).toEqual([ids[1]]);
    expect(await found(ids[2]!.slice(-10).toLowerCase())).toEqual([ids[2]]);
    expect(await found("hollow")).toEqual([ids[2]]);
    expect(await found("nothing like this")).toEqual([]);
  });

  it("treats % and _ in the search as literal characters", async () => {
    const found = async (q: string) => (await list(`?page_size=100&search=${encodeURIComponent(q)}`)).items.map((j) => j.id);
    expect(await found("100%_pure")).toEqual([ids[2]]);
    // Only the two jobs with a literal % ("100%_Pure", "Any% attempts"), not every job.
    expect(await found("%")).toEqual([ids[2], ids[0]]);
    expect(await found("%_")).toEqual([ids[2]]);
    // Unescaped, "_p" would match any character followed by p (e.g. "speedrun").
    expect(await found("_p")).toEqual([ids[2]]);
    expect((await found("filler _")).length).toBe(0);
  });

  it("combines search, status and paging", async () => {
    const res = await list("?search=filler&status=pending&page_size=5&page=5");
    expect(res).toMatchObject({ total: 22, has_more: false });
    expect(res.items).toHaveLength(2);
  });

  it("answers 422 for bad query values, naming each one", async () => {
    const detail = await expect422(await get(acct.api_key, "/jobs?page=0&page_size=101&status=cancelled"));
    expect([...detail.keys()].sort()).toEqual(["page", "page_size", "status"]);
    expect((await expect422(await get(acct.api_key, "/jobs?page=abc"))).get("page")).toEqual(["must be a whole number"]);
    expect((await expect422(await get(acct.api_key, "/jobs?page_size=0"))).has("page_size")).toBe(true);
    expect((await expect422(await get(acct.api_key, "/jobs?page=1.5"))).has("page")).toBe(true);
    expect((await expect422(await get(acct.api_key, `/jobs?search=${"x".repeat(201)}`))).has("search")).toBe(true);
  });

  it("shows only the caller's jobs", async () => {
    const theirs = await list("", other.api_key);
    expect(theirs.total).toBe(1);
    expect(ids).not.toContain(theirs.items[0]!.id);
  });
});

describe("GET /jobs/{id}", () => {
  it("answers 404 for another account's job and for unknown ids", async () => {
    await expectError(await get(other.api_key, `/jobs/${ids[0]}`), 404, "job_not_found");
    await expectError(await get(acct.api_key, "/jobs/job_nope"), 404, "job_not_found");
  });

  it("shows the failure of a failed job", async () => {
    const rec = (await (await get(acct.api_key, `/jobs/${ids[2]}`)).json()) as JobRecord;
    expect(rec).toMatchObject({ status: "failed", error: { code: "render_failed", message: "boom" }, refunded_credits: rec.credit_cost });
    expect(rec.vod_title).toBe("Warmup hour");
    expect(rec.streamer_name).toBe("100%_Pure");
  });
});
