import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_ERROR_CODES } from "../../common/contract/job-errors";
import { toJobError } from "../../render-container/src/pipeline/job-error";

describe("job error codes", () => {
  it("docs/API.md's error code table lists exactly the codes a failed job can carry", async () => {
    const doc = await readFile(path.join(import.meta.dirname, "../../docs/API.md"), "utf8");
    const lines = doc.split("\n");
    const header = lines.indexOf("| code | what happened |");
    expect(header).toBeGreaterThan(0);
    const rows: string[] = [];
    for (let i = header + 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(lines[i]!);
    const listed = rows.flatMap((l) => l.split("|")[1]!.split(",").map((c) => c.trim()));
    expect([...listed].sort()).toEqual(Object.keys(JOB_ERROR_CODES).sort());
  });

  it("the renderer passes documented codes through and turns anything else into render_failed", () => {
    const coded = (code: string) => Object.assign(new Error(`failure ${code}`), { code });
    expect(toJobError(coded("vod_live"))).toMatchObject({ code: "vod_live", message: "failure vod_live" });
    expect(toJobError(coded("some_library_code"))).toMatchObject({ code: "render_failed" });
    expect(toJobError(coded("ENOENT"))).toMatchObject({ code: "render_failed" });
    expect(toJobError(new Error("plain")).message).not.toContain("plain");
  });
});
