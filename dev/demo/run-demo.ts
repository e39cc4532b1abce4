import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createClient, verifyWebhook } from "../../common/client";
import { ProgressView, table } from "./progress-view";

export interface DemoOptions {
  apiUrl: string;
  apiKey: string;
  webhookSecret: string;
  vodId: string;
  outDir: string;
  /** Layouts to demonstrate, one job each. */
  layouts?: ("crop" | "fit" | "split")[];
}

interface ReceivedEvent {
  event: string;
  jobId: string;
  verified: boolean;
}

/** Receives the jobs' webhooks and checks each signature over the raw bytes with the client's verifier. */
async function startReceiver(secret: string) {
  const events: ReceivedEvent[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = new Uint8Array(Buffer.concat(chunks));
    const check = await verifyWebhook({
      rawBody: raw,
      secret,
      signature: req.headers["x-service-signature"] as string | undefined,
      timestamp: req.headers["x-service-timestamp"] as string | undefined,
      timestampedSignature: req.headers["x-service-signature-timestamped"] as string | undefined,
    });
    const body = JSON.parse(Buffer.from(raw).toString("utf8")) as { event: string; payload: { job_id: string } };
    events.push({ event: body.event, jobId: body.payload.job_id, verified: check.ok });
    res.writeHead(check.ok ? 204 : 401).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, events, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const fmtSize = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(0)} kB`);

/**
 * The demo: one job per shorts layout on the sample VOD (the first also renders a reel with a teaser, the fit one
 * draws the chat replay on screen), live
 * progress, verified webhooks, every deliverable downloaded into <outDir>/<job-id>/, and a summary table.
 */
export async function runDemo(o: DemoOptions): Promise<boolean> {
  const client = createClient({ baseUrl: o.apiUrl, apiKey: o.apiKey });
  const receiver = await startReceiver(o.webhookSecret);
  const view = new ProgressView();
  try {
    const vodUrl = `https://www.twitch.tv/videos/${o.vodId}`;
    const meta = await client.getVideoMetadata(vodUrl);
    console.log(`VOD "${meta.title}" by ${meta.streamer_name}, ${Math.round(meta.duration_seconds)} s, usable: ${meta.usable}`);
    const layouts = o.layouts ?? ["crop", "fit", "split"];
    const jobs = [];
    for (const [i, layout] of layouts.entries()) {
      const body = {
        vod_url: vodUrl,
        num_shorts: 2,
        compilation_enabled: i === 0,
        final_video_length_minutes: i === 0 ? 2 : 0,
        webhook_url: receiver.url,
        parameters: {
          max_highlight_duration: 30,
          cold_open_enabled: i === 0,
          reel_title_card_enabled: i === 0,
          shorts_crop_mode: layout,
          shorts_facecam_frame_enabled: layout === "split",
          shorts_facecam_frame_color: "violet",
          // The fit job shows the chat replay on screen, in the padding above the picture.
          ...(layout === "fit" ? { chat_overlay: "bubbles" as const } : {}),
        },
      };
      const estimate = await client.estimateJob(body);
      const ack = await client.createJob(body);
      const chat = layout === "fit" ? " + chat on screen" : "";
      console.log(`job ${ack.id}: ${layout} shorts${i === 0 ? " + reel" : ""}${chat}, ${ack.credit_cost} credits (estimate ${estimate.credit_cost})`);
      jobs.push({ id: ack.id, label: `${layout}${i === 0 ? "+reel" : ""}${chat ? "+chat" : ""}` });
    }
    console.log("");
    const finished = await Promise.all(
      jobs.map((j) =>
        client.waitForJob(j.id, {
          intervalMs: 1000,
          maxIntervalMs: 3000,
          onProgress: (job) => view.update(j.id, j.label, job.status, job.progress, job.stage),
        }),
      ),
    );

    const rows: string[][] = [];
    let ok = true;
    for (const [i, job] of finished.entries()) {
      if (job.status !== "completed") {
        ok = false;
        console.log(`\njob ${job.id} ${job.status}: ${job.error?.message}`);
        continue;
      }
      const results = await client.getResults(job.id);
      const dir = path.join(o.outDir, job.id);
      await mkdir(dir, { recursive: true });
      for (const d of results.deliverables) {
        const res = await fetch(d.url);
        if (!res.ok || !res.body) throw new Error(`download of ${d.name} failed: HTTP ${res.status}`);
        const file = path.join(dir, d.name);
        await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
        if (d.type === "reel" || d.type === "short") {
          rows.push([jobs[i].label, d.type + (d.index ? ` ${d.index}` : ""), d.title.slice(0, 48), `${d.duration_seconds.toFixed(1)} s`, fmtSize(d.size_bytes), path.relative(process.cwd(), file)]);
        }
      }
      const zip = await client.downloadAll(job.id);
      await pipeline(Readable.fromWeb(zip.body as never), createWriteStream(path.join(dir, `${job.id}.zip`)));
    }
    // Webhooks may trail the final poll by a moment.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && finished.some((j) => !receiver.events.some((e) => e.jobId === j.id && (e.event === "job.completed" || e.event === "job.failed")))) {
      await new Promise((r) => setTimeout(r, 250));
    }
    console.log(`\n${table(["job", "type", "title", "duration", "size", "path"], rows)}\n`);
    for (const j of finished) {
      const got = receiver.events.filter((e) => e.jobId === j.id);
      const allVerified = got.length > 0 && got.every((e) => e.verified);
      if (!allVerified) ok = false;
      console.log(`webhooks for ${j.id}: ${got.map((e) => e.event).join(", ") || "none"} — signatures ${allVerified ? "verified" : "NOT verified"}`);
    }
    console.log(`\nFiles are in ${path.relative(process.cwd(), o.outDir) || "."}/<job-id>/ (each folder also holds the job's ZIP).`);
    return ok;
  } finally {
    await receiver.close();
  }
}
