import { Container } from "@cloudflare/containers";
import type { Env } from "../env";
import { clearEndedInstance, LOST_NOTICE_ATTEMPTS, LOST_NOTICE_RETRY_SECONDS, onActivityExpiry, onContainerStopped, unassign, type Assignment, type OwnerOf } from "./container-assignment";
import { cancelTaskOn, finishTaskOn, handOverTaskOn, startTaskOn, type TaskInstance } from "./container-tasks";

/**
 * Renderer settings forwarded from the Worker's vars/secrets into the container's environment, and nothing else:
 * the container parses media from the internet, so LINK_SIGNING_KEY (which makes every job's tokens and links),
 * ADMIN_TOKEN and the R2 API credentials stay in the Worker (docs/DEPLOY.md, "Least privilege for the renderer").
 * A task gets what it may use in its task request instead: its attempt's own token and URLs.
 */
const FORWARDED_ENV = [
  "RENDERER_TOKEN",
  "TRANSCRIBE_API_URL",
  "TRANSCRIBE_API_KEY",
  "TRANSCRIBE_MODEL",
  "METADATA_API_URL",
  "METADATA_API_KEY",
  "METADATA_MODEL",
  "DOWNLOAD_CONCURRENCY",
  "ENCODE_CONCURRENCY",
] as const;

/** The container's environment: one task at a time, listening on every interface, and the forwarded settings. */
export function containerEnv(env: Env): Record<string, string> {
  const vars: Record<string, string> = { HOST: "0.0.0.0", MAX_TASKS: "1" };
  for (const name of FORWARDED_ENV) {
    const value = (env as unknown as Record<string, unknown>)[name];
    if (typeof value === "string" && value) vars[name] = value;
  }
  return vars;
}

/** A task's job object (the one that knows whether the task still runs). */
const jobsOf =
  (env: Env): OwnerOf =>
  (jobId) =>
    env.JOB_STATE.get(env.JOB_STATE.idFromName(jobId));

/**
 * One renderer container instance per task in production (Cloudflare Containers); the object is named after the
 * task (`<job_id>.<task_id>`). An instance lives exactly while its task runs:
 * - `sleepAfter` counts only requests INTO the container, and a task's reports go OUT to the Worker, so the
 *   default (stop when the activity timer runs out) would stop every render after `sleepAfter`. Instead, when it
 *   runs out, `onActivityExpired` asks the job's Durable Object whether the task is still running there (it is
 *   while the renderer keeps reporting; the job's watchdog decides when a silent one is lost) and renews it.
 * - When the task ends (done, failed, cancelled, given up) the job's object calls `finishTask`, which stops it.
 * - A rollout or eviction sends SIGTERM: the renderer reports the task as interrupted and the job retries it
 *   elsewhere at once; if the instance dies without reporting, `onStop` tells the job the task was lost (and, if
 *   that call fails, tries again from the object's alarm through the library's `schedule`).
 * - Once stopped and done with, the object clears its storage (`alarm`), so finished tasks leave no objects with
 *   data behind (not while a lost-task notice is still to be sent: its assignment and schedule keep it).
 * Locally and in tests the renderer runs as plain processes reached at RENDER_URL instead.
 */
export class RenderContainer extends Container<Env> {
  defaultPort = 8080;
  // How often an instance whose task still runs is checked; not a limit on the task's length.
  sleepAfter = "3m";
  pingEndpoint = "container/health";

  constructor(ctx: DurableObjectState<{}>, env: Env) {
    super(ctx, env);
    this.envVars = containerEnv(env);
  }

  /** This instance as the task calls see it (container-tasks.ts, where they are written and tested). */
  private get instance(): TaskInstance {
    return { storage: this.ctx.storage, running: () => Boolean(this.ctx.container?.running), fetch: (request) => this.containerFetch(request), stop: () => this.stop() };
  }

  /** Starts the container if needed and hands it the task; returns the renderer's (or the platform's) answer. */
  async startTask(assignment: Assignment, body: string, token: string | null): Promise<{ status: number; body: string }> {
    return startTaskOn(this.instance, assignment, body, token);
  }

  async cancelTask(key: string): Promise<boolean> {
    return cancelTaskOn(this.instance, key, this.env.RENDERER_TOKEN);
  }

  /** Moves the instance to the job's next task (a re-cut's short after its analysis); false when it cannot take it. */
  async handOverTask(from: Assignment, to: Assignment): Promise<boolean> {
    return handOverTaskOn(this.instance, from, to);
  }

  /** The task ended: forget it and stop the instance. */
  async finishTask(): Promise<void> {
    await finishTaskOn(this.instance);
  }

  // The decisions live in container-assignment.ts (tested there: this class needs a container runtime to exist).
  override async onActivityExpired(): Promise<void> {
    if ((await onActivityExpiry(this.ctx.storage, jobsOf(this.env))) === "renew") this.renewActivityTimeout();
    else await this.stop();
  }

  /** The library's alarm runs its schedules and notices a stopped container; after its last one, clear storage. */
  override async alarm(alarmProps?: AlarmInvocationInfo): Promise<void> {
    await super.alarm(alarmProps);
    await clearEndedInstance(this.ctx.storage, Boolean(this.ctx.container?.running));
  }

  override async onStop(): Promise<void> {
    if ((await onContainerStopped(this.ctx.storage, jobsOf(this.env))) === "retry") await this.schedule(LOST_NOTICE_RETRY_SECONDS, "retryLostNotice", { tries: 1 });
  }

  /**
   * A lost-task notice whose call failed, run again by the alarm (the Container class owns `alarm()` and runs
   * due schedules even when no container runs). The assignment it reports stays stored until the job heard it.
   */
  async retryLostNotice(payload: { tries: number }): Promise<void> {
    const notice = await onContainerStopped(this.ctx.storage, jobsOf(this.env));
    if (notice !== "retry") return;
    if (payload.tries < LOST_NOTICE_ATTEMPTS) await this.schedule(LOST_NOTICE_RETRY_SECONDS, "retryLostNotice", { tries: payload.tries + 1 });
    // Given up (the job's watchdog has found the task silent by now): forget it, so the storage can be cleared.
    else await unassign(this.ctx.storage);
  }
}
