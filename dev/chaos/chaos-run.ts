import { createHash } from "node:crypto";
import path from "node:path";
import { generateSyntheticVod } from "../synth-vod";
import { childProcesses, descendantProcesses } from "../stack/child-processes";
import { startLocalStack, type LocalStack } from "../stack/local-stack";
import { compareOutcomes, type Comparison, type JobOutcome } from "./compare";
import { startRendererFront, type RendererFront } from "./renderer-front";
import { startWebhookRecorder } from "./webhook-recorder";
import { jsonLines, type LogLine } from "../stack/log-lines";

/**
 * The chaos run (issue 23): on the local stack with the task model, one job undisturbed and then the same job
 * again while
 *   1. its next dispatch meets a busy renderer four times, then a transient error (the renderer front's script),
 *   2. one queue message of a render task is delivered twice (dev/chaos/chaos-worker.ts),
 *   3. one renderer process is killed (SIGKILL, its whole process group) while it renders a task of the job,
 *   4. another renderer is told to stop (SIGTERM to the renderer process) while it renders another task,
 * and the two outcomes are compared (compare.ts): files, webhooks, ledger entries, the job record. Each
 * disturbance is also checked to have happened (the front's record, the Worker's and the
 * renderers' logs), so a run where one of them missed its moment says so instead of passing.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const VOD_ID = "900000777";

export interface ChaosOptions {
  /** Logs, local state and the VOD go here. */
  workDir: string;
  log?: (line: string) => void;
}

export interface ChaosReport {
  undisturbed: JobOutcome;
  disturbed: JobOutcome;
  comparison: Comparison;
  /** What each disturbance did, as observed. */
  disturbances: {
    scriptedAnswers: RendererFront["scripted"];
    duplicated: { job_id: string; task_id?: string }[];
    /** The Worker's dispatch outcome for each message of the duplicated task (e.g. started, then skipped). */
    duplicateOutcomes: string[];
    killed: { renderer: number; task_id: string };
    terminated: { renderer: number; task_id: string; exit_code: number | null };
    /** The Worker's "task retried" lines for the disturbed job. */
    retries: { task_id: string; why: string; ended_attempt: number }[];
  };
  /** Problems with the run itself: a disturbance that did not happen as scripted. */
  missed: string[];
  seconds: { undisturbed: number; disturbed: number; total: number };
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runChaos(opts: ChaosOptions): Promise<ChaosReport> {
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  const stateDir = path.join(opts.workDir, "state");
  const vodRoot = path.join(opts.workDir, "vods");
  log("generating the synthetic VOD (150 s, three hype moments)");
  await generateSyntheticVod({ root: vodRoot, vodId: VOD_ID, durationSeconds: 150, seed: 7, width: 640, height: 360, moments: [{ kind: "hype", peak: 35 }, { kind: "hype", peak: 80 }, { kind: "hype", peak: 125 }] });

  let front: RendererFront | undefined;
  let secret = "";
  const receiver = await startWebhookRecorder(() => secret);
  let stack: LocalStack | undefined;
  try {
    log("starting the local stack: 3 renderer processes behind the scripted front, the Worker with the chaos entry");
    stack = await startLocalStack({
      vodRoot,
      stateDir,
      renderers: 3,
      rendererEnv: { MAX_TASKS: "1" },
      // A killed task is found lost after 20 s (default 600 s); webhook retries quick.
      vars: { WEBHOOK_RETRY_BASE_SECONDS: "0.2", WATCHDOG_SECONDS: "20" },
      renderFront: async (urls) => (front = await startRendererFront(urls)).renderUrl,
      workerEntry: path.join(ROOT, "dev/chaos/chaos-worker.ts"),
    });
    const s = stack;
    const adminHeaders = { authorization: `Bearer ${s.adminToken}`, "content-type": "application/json" };
    const created = await fetch(`${s.apiUrl}/admin/accounts`, { method: "POST", headers: adminHeaders, body: JSON.stringify({ name: "Chaos", plan: "pro", credits: 5000, purchase: true }) });
    if (created.status !== 201) throw new Error(`creating the account failed: HTTP ${created.status} ${await created.text()}`);
    const account = (await created.json()) as { account_id: string; api_key: string; webhook_signing_secret: string };
    secret = account.webhook_signing_secret;
    const api = (p: string, init: RequestInit = {}) => fetch(`${s.apiUrl}${p}`, { ...init, headers: { "x-api-key": account.api_key, "content-type": "application/json", ...(init.headers ?? {}) } });

    const request = (label: string) => ({
      vod_url: `https://www.twitch.tv/videos/${VOD_ID}`,
      num_shorts: 3,
      final_video_length_minutes: 1,
      webhook_url: `${receiver.url}/${label}`,
      parameters: { max_highlight_duration: 25, shorts_crop_mode: "fit" },
    });
    const createJob = async (label: string) => {
      const res = await api("/jobs", { method: "POST", body: JSON.stringify(request(label)) });
      if (res.status !== 202) throw new Error(`POST /jobs: HTTP ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    const getJob = async (id: string) => (await (await api(`/jobs/${id}`)).json()) as JobOutcome["job"];
    const finished = async (id: string, timeoutMs = 900_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await getJob(id);
        if (job.status === "completed" || job.status === "failed") return job;
        if (Date.now() > deadline) throw new Error(`job ${id} did not finish in ${timeoutMs / 1000} s: ${JSON.stringify(job)}`);
        await sleep(500);
      }
    };

    const outcome = async (id: string, label: string): Promise<JobOutcome> => {
      const job = await getJob(id);
      // The last webhook is delivered after the job settles: wait until the terminal event is in.
      const deadline = Date.now() + 30_000;
      while (!receiver.forPath(`/${label}`).some((w) => w.event === "job.completed" || w.event === "job.failed") && Date.now() < deadline) await sleep(200);
      await sleep(2000); // anything sent twice would arrive now
      const results = (await (await api(`/jobs/${id}/results`)).json()) as { deliverables: { name: string; type: string; url: string; size_bytes: number }[]; manifest: unknown };
      const files: JobOutcome["files"] = [];
      for (const d of results.deliverables ?? []) {
        const bytes = Buffer.from(await (await fetch(d.url)).arrayBuffer());
        files.push({ name: d.name, type: d.type, size_bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
      }
      files.sort((a, b) => a.name.localeCompare(b.name));
      const detail = (await (await fetch(`${s.apiUrl}/admin/accounts/${account.account_id}?ledger_limit=1000`, { headers: adminHeaders })).json()) as { ledger: { id: number; kind: string; amount: number; reason: string | null; job_id: string | null }[] };
      const ledger = detail.ledger.filter((e) => e.job_id === id).sort((a, b) => a.id - b.id).map((e) => ({ kind: e.kind, amount: e.amount, reason: e.reason }));
      const webhooks = receiver.forPath(`/${label}`).map((w) => ({ event: w.event, signatureValid: w.signatureValid, payload: w.payload }));
      return { job_id: id, job: { status: job.status, progress: job.progress, credit_cost: job.credit_cost, refunded_credits: job.refunded_credits, error: job.error }, files, manifest: results.manifest ?? null, webhooks, ledger };
    };

    // ---- the undisturbed job ----
    const t0 = Date.now();
    log("undisturbed job: started");
    const quietId = await createJob("undisturbed");
    await finished(quietId);
    const undisturbed = await outcome(quietId, "undisturbed");
    const quietSeconds = (Date.now() - t0) / 1000;
    log(`undisturbed job ${quietId}: ${undisturbed.job.status} in ${quietSeconds.toFixed(0)} s, ${undisturbed.files.length} files`);

    // ---- the disturbed job ----
    const t1 = Date.now();
    front!.answerNext([503, 503, 503, 503, 500]);
    const armed = await fetch(`${s.apiUrl}/__chaos/duplicate-next-render`, { method: "POST", headers: adminHeaders });
    if (!armed.ok) throw new Error(`arming the duplicate delivery failed: HTTP ${armed.status}`);
    const id = await createJob("disturbed");
    log(`disturbed job ${id}: started (next dispatch: 4 busy answers then a 500; next render-task message delivered twice)`);

    /** A render task of the job running with FFmpeg under its renderer, on a renderer not in `exclude`. */
    const renderTaskRunning = async (exclude: number[], excludeTasks: string[]) => {
      const deadline = Date.now() + 600_000;
      for (;;) {
        for (const [index, url] of s.rendererUrls.entries()) {
          if (exclude.includes(index)) continue;
          const health = await fetch(`${url}/health`).then((r) => r.json() as Promise<{ tasks: { task_key: string; kind: string }[] }>).catch(() => ({ tasks: [] }));
          const task = health.tasks.find((t) => t.task_key.startsWith(`${id}.`) && t.kind !== "analyse" && !excludeTasks.includes(t.task_key.slice(id.length + 1)));
          const pid = s.renderers[index]!.child.pid;
          if (task && pid && descendantProcesses(pid).some((p) => p.name === "ffmpeg")) return { index, taskId: task.task_key.slice(id.length + 1) };
        }
        const job = await getJob(id);
        if (job.status === "completed" || job.status === "failed") throw new Error(`the disturbed job ended before a render task could be disturbed: ${JSON.stringify(job)}`);
        if (Date.now() > deadline) throw new Error("no render task of the disturbed job was seen running within 600 s");
        await sleep(100);
      }
    };

    const victim = await renderTaskRunning([], []);
    process.kill(-s.renderers[victim.index]!.child.pid!, "SIGKILL");
    log(`SIGKILL: renderer ${victim.index + 1} while it rendered task ${victim.taskId}`);
    await s.restartRenderer(victim.index);

    const second = await renderTaskRunning([victim.index], [victim.taskId]);
    const tsx = s.renderers[second.index]!.child;
    const renderer = childProcesses(tsx.pid!);
    const exited = new Promise<number | null>((r) => (tsx.exitCode !== null ? r(tsx.exitCode) : tsx.once("exit", (code) => r(code))));
    process.kill(renderer[0]!.pid, "SIGTERM");
    const exitCode = await exited;
    log(`SIGTERM: renderer ${second.index + 1} while it rendered task ${second.taskId}; it exited with ${exitCode}`);
    await s.restartRenderer(second.index);

    const done = await finished(id);
    const disturbed = await outcome(id, "disturbed");
    const disturbedSeconds = (Date.now() - t1) / 1000;
    log(`disturbed job ${id}: ${done.status} in ${disturbedSeconds.toFixed(0)} s, ${disturbed.files.length} files`);

    // ---- did each disturbance happen? ----
    const workerLog = await jsonLines(path.join(stateDir, "worker.log"));
    const retries = workerLog.filter((l) => l.msg === "task retried" && l.job_id === id).map((l) => ({ task_id: String(l.task_id), why: String(l.why), ended_attempt: Number(l.ended_attempt) }));
    const duplicated = workerLog.filter((l) => l.msg === "chaos: queue message sent a second time").map((l) => ({ job_id: String(l.job_id), task_id: String(l.task_id) }));
    const dup = duplicated.find((d) => d.job_id === id);
    const duplicateOutcomes = dup ? workerLog.filter((l) => l.msg === "dispatch" && l.job_id === id && l.task_id === dup.task_id).map((l) => `${String(l.outcome)}${l.reason ? ` (${String(l.reason)})` : ""}`) : [];
    const missed: string[] = [];
    const scripted = front!.scripted.filter((a) => a.job_id === id);
    if (scripted.map((a) => a.status).join(",") !== "503,503,503,503,500") missed.push(`scripted answers: ${JSON.stringify(scripted)}`);
    if (!dup) missed.push("no queue message of the disturbed job was delivered twice");
    else if (duplicateOutcomes.length < 2) missed.push(`the duplicated message of ${dup.task_id} was handled ${duplicateOutcomes.length} time(s)`);
    if (!retries.some((r) => r.task_id === victim.taskId && r.why === "lost")) missed.push(`the killed task ${victim.taskId} was not retried as lost: ${JSON.stringify(retries)}`);
    if (!retries.some((r) => r.task_id === second.taskId && r.why === "interrupted")) missed.push(`the SIGTERMed task ${second.taskId} was not retried as interrupted: ${JSON.stringify(retries)}`);

    return {
      undisturbed,
      disturbed,
      comparison: compareOutcomes(undisturbed, disturbed),
      disturbances: { scriptedAnswers: scripted, duplicated, duplicateOutcomes, killed: { renderer: victim.index + 1, task_id: victim.taskId }, terminated: { renderer: second.index + 1, task_id: second.taskId, exit_code: exitCode }, retries },
      missed,
      seconds: { undisturbed: quietSeconds, disturbed: disturbedSeconds, total: (Date.now() - started) / 1000 },
    };
  } finally {
    await stack?.stop();
    await front?.close();
    await receiver.close();
  }
}
