import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsInto, ROOT, tsFiles } from "../../support/source-imports";

describe("the renderer speaks only the Twitch protocol", () => {
  it("no module of render-container/src or common/ imports the local Twitch server or the VOD generator (dev/)", async () => {
    const files = [...(await tsFiles(path.join(ROOT, "render-container/src"))), ...(await tsFiles(path.join(ROOT, "common")))];
    expect(files.length).toBeGreaterThan(20);
    expect(await importsInto(files, "dev")).toEqual([]);
  });
});
