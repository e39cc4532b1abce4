import { describe, expect, it } from "vitest";
import { DiskRoom } from "../../../render-container/src/source/disk-guard";
import type { SourceError } from "../../../render-container/src/source/source-error";

describe("DiskRoom", () => {
  it("looks at the disk far less often than once per write and still stops before the reserve is crossed", async () => {
    const MB = 1e6;
    let free = 1000 * MB;
    let looks = 0;
    const room = new DiskRoom("/unused", 200 * MB, async () => {
      looks++;
      return free;
    });
    let written = 0;
    const error = await (async () => {
      for (;;) {
        await room.admit(0.2 * MB);
        free -= 0.2 * MB;
        written += 0.2 * MB;
      }
    })().catch((e: unknown) => e);
    expect((error as SourceError).code).toBe("disk_full");
    // Never below the reserve, and close to it (a quarter of what was left at each look, down to single writes).
    expect(free).toBeGreaterThanOrEqual(200 * MB);
    expect(free).toBeLessThan(201 * MB);
    expect(written / (0.2 * MB)).toBeGreaterThan(3900);
    expect(looks).toBeLessThan(written / (0.2 * MB) / 10);
  });

  it("sees space taken by others at its next look", async () => {
    let free = 1000;
    const room = new DiskRoom("/unused", 100, async () => free);
    await room.admit(10); // looks: 890 above the reserve, writes up to ~222 more before looking again
    free = 105; // another download filled the disk meanwhile
    await room.admit(200);
    const error = await room.admit(100).catch((e: unknown) => e);
    expect((error as SourceError).code).toBe("disk_full");
  });
});
