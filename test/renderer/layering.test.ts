import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsInto, ROOT, tsFiles } from "../support/source-imports";

describe("the renderer stands on its own (dependencies point one way)", () => {
  it("no module of render-container/src imports the Worker (worker/)", async () => {
    const files = await tsFiles(path.join(ROOT, "render-container/src"));
    expect(files.length).toBeGreaterThan(20);
    expect(await importsInto(files, "worker")).toEqual([]);
  });

  it("the check sees such an import: the local job builder in the dev tooling uses the Worker's own rules", async () => {
    expect(await importsInto([path.join(ROOT, "dev/render-cli/local-job.ts")], "worker")).toEqual(["dev/render-cli/local-job.ts -> ../../worker/src/domain/prepare-job"]);
  });
});
