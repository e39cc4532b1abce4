import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { runChaos } from "../dev/chaos/chaos-run";

/**
 * npm run chaos [-- --work-dir DIR]: the chaos run (dev/chaos/chaos-run.ts) on the local stack. Prints what each
 * disturbance did and the comparison of the disturbed job with the undisturbed one; writes the whole report as
 * JSON to DIR/report.json. Exit code 0 only when every disturbance happened and nothing differs.
 */
const args = process.argv.slice(2);
const at = args.indexOf("--work-dir");
const workDir = path.resolve(at >= 0 && args[at + 1] ? args[at + 1]! : ".local/chaos");
await mkdir(workDir, { recursive: true });
const stamp = () => new Date().toISOString().slice(11, 19);
const report = await runChaos({ workDir, log: (line) => console.log(`[${stamp()}] ${line}`) });
await writeFile(path.join(workDir, "report.json"), JSON.stringify(report, null, 2) + "\n");

const d = report.disturbances;
const { comparison: c } = report;
console.log("\nDisturbances, as observed:");
console.log(`  scripted answers to POST /tasks: ${d.scriptedAnswers.map((a) => `${a.status} (${a.task_id})`).join(", ")}`);
console.log(`  queue message delivered twice: ${d.duplicated.map((m) => m.task_id).join(", ") || "none"}; the Worker's dispatch outcomes for it: ${d.duplicateOutcomes.join(", ")}`);
console.log(`  SIGKILL: renderer ${d.killed.renderer}, task ${d.killed.task_id}`);
console.log(`  SIGTERM: renderer ${d.terminated.renderer}, task ${d.terminated.task_id} (exit code ${d.terminated.exit_code})`);
console.log(`  tasks run again: ${d.retries.map((r) => `${r.task_id} (${r.why}, after attempt ${r.ended_attempt})`).join(", ")}`);
console.log("\nCompared (undisturbed vs disturbed):");
for (const [label, o] of [["undisturbed", report.undisturbed], ["disturbed", report.disturbed]] as const) {
  console.log(`  ${label} ${o.job_id}: ${o.job.status}, ${o.files.length} files, webhooks [${o.webhooks.map((w) => w.event).join(", ")}], ledger [${o.ledger.map((e) => `${e.kind} ${e.amount}`).join(", ")}]`);
}
console.log(`  files with identical bytes: ${c.identicalFiles} of ${report.undisturbed.files.length}`);
if (c.withinTolerance.length) console.log(`  files within the size tolerance: ${c.withinTolerance.join("; ")}`);
console.log(`  differences: ${c.differences.length === 0 ? "none" : ""}`);
for (const line of c.differences) console.log(`    - ${line}`);
if (report.missed.length) {
  console.log("  disturbances that did not happen as scripted:");
  for (const line of report.missed) console.log(`    - ${line}`);
}
console.log(`\nTime: undisturbed job ${report.seconds.undisturbed.toFixed(0)} s, disturbed job ${report.seconds.disturbed.toFixed(0)} s, whole run ${report.seconds.total.toFixed(0)} s. Report: ${path.join(workDir, "report.json")}`);
process.exit(c.differences.length === 0 && report.missed.length === 0 ? 0 : 1);
