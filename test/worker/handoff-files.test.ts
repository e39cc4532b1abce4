import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { Deliverable } from "../../worker/src/artifacts/results";
import { call, createAccount, get, minimalJob, type TestAccount } from "./helpers";
import { eventually, startedJob, webhookBox } from "./job-steps";
import { completeJob, testPlan } from "./task-flow";

/**
 * The editor hand-off files through the public API: a job posted to POST /jobs and played through the task path
 * (the Worker's real routes, queue, Durable Object and finalising step; the renderer's side by the tests), then its
 * .otio, .edl and transcript read back through their links, the ZIP and the job.completed webhook. What
 * OpenTimelineIO itself makes of the files is checked in test/common/editor-handoff.test.ts (python3 does not run
 * in workerd) and, on the real local stack, in test/e2e/job-lifecycle.e2e.test.ts.
 */

type Results = { deliverables: Deliverable[]; zip_url: string; manifest: { highlights: { run_name: string; start: number; end: number; title?: string }[]; artifacts: { assets: Record<string, { name: string; url?: string }[]> } } };

let acct: TestAccount;
let jobId: string;
let results: Results;
let box: Awaited<ReturnType<typeof webhookBox>>;

const path = (url: string) => url.replace(/^https:\/\/api\.test/, "");
async function fetched(d: Deliverable): Promise<{ text: string; type: string | null }> {
  const res = await call(path(d.url));
  expect(res.status, d.name).toBe(200);
  return { type: res.headers.get("content-type"), text: await res.text() };
}

beforeAll(async () => {
  acct = await createAccount({ plan: "pro", credits: 100_000, purchase: true });
  box = await webhookBox();
  const { render } = await startedJob(acct.api_key, minimalJob({ num_shorts: 1, webhook_url: box.url }));
  jobId = render.job_id;
  await completeJob(render);
  const res = await get(acct.api_key, `/jobs/${jobId}/results`);
  expect(res.status).toBe(200);
  results = (await res.json()) as Results;
});

describe("editor hand-off files of a job", () => {
  it("are deliverables of their own types, listed in the manifest", () => {
    const of = (type: string) => results.deliverables.filter((d) => d.type === type).map((d) => [d.name, d.content_type, d.run_name ?? null, d.index ?? null]);
    expect(of("timeline")).toEqual([["reel-balanced.otio", "application/json", "balanced", null]]);
    expect(of("edl")).toEqual([["reel-balanced.edl", "text/plain; charset=utf-8", "balanced", null]]);
    expect(of("transcript")).toEqual([["short-01.transcript.json", "application/json", "balanced", 1]]);
    const assets = results.manifest.artifacts.assets;
    expect([assets.timelines, assets.edls, assets.transcripts].map((g) => g!.map((a) => a.name))).toEqual([["reel-balanced.otio"], ["reel-balanced.edl"], ["short-01.transcript.json"]]);
    for (const a of [...assets.timelines!, ...assets.edls!]) expect(a.url).toBe(results.deliverables.find((d) => d.name === a.name)!.url);
  });

  it("the .otio: the reel's pieces on the VOD's clock, its moments the manifest's highlights", async () => {
    const { text, type } = await fetched(results.deliverables.find((d) => d.type === "timeline")!);
    expect(type).toBe("application/json");
    type Clip = { OTIO_SCHEMA: string; name: string; source_range: { start_time: { value: number; rate: number }; duration: { value: number } }; media_reference: { target_url: string }; metadata: { highlights: { kind: string; vod_start: number; vod_end: number } } };
    const doc = JSON.parse(text) as { OTIO_SCHEMA: string; name: string; tracks: { OTIO_SCHEMA: string; children: { OTIO_SCHEMA: string; kind: string; children: Clip[] }[] } };
    expect([doc.OTIO_SCHEMA, doc.tracks.OTIO_SCHEMA, doc.name]).toEqual(["Timeline.1", "Stack.1", "Best of the night"]);
    const [video, audio] = doc.tracks.children;
    expect([video!.kind, audio!.kind]).toEqual(["Video", "Audio"]);
    // testPlan: a teaser from the first moment (position 0), then the two moments; the VOD at 60 fps.
    expect(video!.children.map((c) => [c.OTIO_SCHEMA, c.name, c.metadata.highlights.kind])).toEqual([
      ["Clip.1", "Teaser: The clutch", "teaser"],
      ["Clip.1", "The clutch", "moment"],
      ["Clip.1", "The fall", "moment"],
    ]);
    expect(video!.children.every((c) => c.media_reference.target_url === testPlan(jobId).source.vod_url)).toBe(true);
    const moments = video!.children.filter((c) => c.metadata.highlights.kind === "moment");
    expect(moments.map((c) => [c.metadata.highlights.vod_start, c.metadata.highlights.vod_end])).toEqual(results.manifest.highlights.map((h) => [h.start, h.end]));
    for (const [i, c] of moments.entries()) expect(c.source_range.start_time).toEqual({ OTIO_SCHEMA: "RationalTime.1", rate: 60, value: Math.round(results.manifest.highlights[i]!.start * 60) });
  });

  it("the .edl: record timecodes adding up to the reel's length", async () => {
    const { text, type } = await fetched(results.deliverables.find((d) => d.type === "edl")!);
    expect(type).toBe("text/plain; charset=utf-8");
    const frames = (tc: string) => tc.split(":").map(Number).reduce((n, x, i) => (i === 3 ? n * 60 + x : n * (i === 0 ? 1 : 60) + x), 0);
    const events = text.split("\n").filter((l) => /^\d{3} /.test(l)).map((l) => l.split(/\s+/));
    expect(events).toHaveLength(3);
    const reel = results.deliverables.find((d) => d.type === "reel")!;
    expect(events.reduce((n, e) => n + frames(e[7]!) - frames(e[6]!), 0)).toBe(Math.round(reel.duration_seconds * 60));
    for (const e of events) expect(frames(e[5]!) - frames(e[4]!)).toBe(frames(e[7]!) - frames(e[6]!));
  });

  it("are in the ZIP byte for byte, and in the job.completed webhook", async () => {
    const zip = unzipSync(new Uint8Array(await (await call(path(results.zip_url))).arrayBuffer()));
    for (const d of results.deliverables.filter((x) => ["timeline", "edl", "transcript"].includes(x.type))) {
      expect(new TextDecoder().decode(zip[d.name]), d.name).toBe((await fetched(d)).text);
    }
    const completed = await eventually(async () => (await box.received()).find((r) => (JSON.parse(r.body) as { event: string }).event === "job.completed"), 15_000, "job.completed");
    const { deliverables } = (JSON.parse(completed.body) as { payload: { deliverables: Deliverable[] } }).payload;
    expect(deliverables.map((d) => d.type).filter((t) => ["timeline", "edl", "transcript"].includes(t)).sort()).toEqual(["edl", "timeline", "transcript"]);
  });
});
