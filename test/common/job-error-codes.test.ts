import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_ERROR_CODES } from "../../common/contract/job-errors";
import { toJobError } from "../../render-container/src/pipeline/job-error";

describe("job error codes", () => {
  it("docs/API.md lists every code a failed job can carry", async () => {
    const doc = await readFile(path.join(import.meta.dirname, "../../docs/API.md"), "utf8");
    const rows = doc.split("\n").filter((l) => /^\| [a-z_, ]+ \|/.test(l));
    const listed = new Set(rows.flatMap((l) => l.split("|")[1]!.split(",").map((c) => c.trim())));
    for (const code of Object.keys(JOB_ERROR_CODES)) expect(listed.has(code), code).toBe(true);
  });

  it("the renderer passes documented codes through and turns anything else into render_failed", () => {
    const coded = (code: string) => Object.assign(new Error(`failure ${code}`), { code });
    expect(toJobError(coded("vod_live"))).toMatchObject({ code: "vod_live", message: "failure vod_live" });
    expect(toJobError(coded("some_library_code"))).toMatchObject({ code: "render_failed" });
    expect(toJobError(coded("ENOENT"))).toMatchObject({ code: "render_failed" });
    expect(toJobError(new Error("plain")).message).not.toContain("plain");
  });
});
