import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { assign, clearEndedInstance, onContainerStopped, unassign, type InstanceStorage, type OwnerOf } from "../../worker/src/durable/container-assignment";

/**
 * One RenderContainer object per task attempt, so each would keep its storage forever unless it clears it (issue 23,
 * point 7). The Container class cannot be constructed without a container runtime (container-lifecycle.test.ts
 * says why), so its end of life runs here on a real SQLite-backed Durable Object's storage, holding what an
 * instance holds: the task's assignment, and the @cloudflare/containers 0.3.7 library's own state key, schedules
 * table and alarm.
 */

/** Runs `fn` on a fresh SQLite-backed object's storage, standing in for one container instance's own storage. */
async function withInstanceStorage<T>(fn: (storage: DurableObjectStorage) => Promise<T>): Promise<T> {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`container-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_instance, state) => fn(state.storage));
}

/** What an instance's storage holds while its task runs: the library's records, its alarm, the assignment. */
async function runningInstance(storage: DurableObjectStorage): Promise<void> {
  storage.sql.exec("CREATE TABLE IF NOT EXISTS container_schedules (id TEXT PRIMARY KEY NOT NULL DEFAULT (randomblob(9)), callback TEXT NOT NULL, payload TEXT, type TEXT NOT NULL, time INTEGER NOT NULL, created_at INTEGER DEFAULT (unixepoch()))");
  await storage.put("__CF_CONTAINER_STATE", { status: "healthy", lastChange: Date.now() });
  await storage.setAlarm(Date.now() + 180_000);
  await assign(storage, { job_id: "job_x", task_id: "short-01", attempt: 1 });
}

/** The library's last alarm after the container stopped: state written, nothing scheduled, alarm deleted. */
async function libraryStopped(storage: DurableObjectStorage): Promise<void> {
  await storage.put("__CF_CONTAINER_STATE", { status: "stopped", lastChange: Date.now() });
  await storage.deleteAlarm();
}

async function leftBehind(storage: DurableObjectStorage): Promise<{ keys: string[]; tables: string[]; alarm: number | null }> {
  const keys = [...(await storage.list()).keys()];
  const tables = storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").toArray().map((r) => r.name);
  return { keys, tables, alarm: await storage.getAlarm() };
}

const NOTHING = { keys: [], tables: [], alarm: null };

describe("a RenderContainer object's storage at the end of its task", () => {
  it("a task that ended (finishTask, then the container stopped) leaves nothing behind", async () => {
    await withInstanceStorage(async (storage) => {
      await runningInstance(storage);
      await unassign(storage); // finishTask
      await libraryStopped(storage);
      expect(await clearEndedInstance(storage as InstanceStorage, false)).toBe(true);
      expect(await leftBehind(storage)).toEqual(NOTHING);
    });
  });

  it("a container that died with its task reports the loss first, then leaves nothing behind", async () => {
    const told: string[] = [];
    const owner: OwnerOf = () => ({ isTaskRunning: async () => true, taskLost: async (taskId, attempt) => void told.push(`${taskId}.a${attempt}`) });
    await withInstanceStorage(async (storage) => {
      await runningInstance(storage);
      await libraryStopped(storage);
      // Before onStop has run, the assignment is the only record of the lost task: it is kept.
      expect(await clearEndedInstance(storage as InstanceStorage, false)).toBe(false);
      expect(await onContainerStopped(storage, owner)).toBe(true);
      expect(await clearEndedInstance(storage as InstanceStorage, false)).toBe(true);
      expect(await leftBehind(storage)).toEqual(NOTHING);
    });
    expect(told).toEqual(["short-01.a1"]);
  });

  it("keeps everything while the container runs or the library still has an alarm set", async () => {
    await withInstanceStorage(async (storage) => {
      await runningInstance(storage);
      await unassign(storage);
      expect(await clearEndedInstance(storage as InstanceStorage, true)).toBe(false);
      // Stopped, but the library's alarm (its loop, or a schedule) is still due.
      expect(await clearEndedInstance(storage as InstanceStorage, false)).toBe(false);
      expect((await leftBehind(storage)).tables).toEqual(["container_schedules"]);
      expect(await storage.getAlarm()).not.toBeNull();
    });
  });
});
