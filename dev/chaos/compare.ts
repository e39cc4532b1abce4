/**
 * What a job left behind, as seen from outside (API, webhook receiver, operator API), and the comparison of two
 * such outcomes: the chaos run's verdict that a disturbed job ended exactly as an undisturbed one.
 */
export interface JobOutcome {
  job_id: string;
  job: { status: string; progress: number; credit_cost: number; refunded_credits: number; error: unknown };
  /** Every deliverable, by name: its type, size and SHA-256 of the bytes downloaded behind its link. */
  files: { name: string; type: string; size_bytes: number; sha256: string }[];
  /** The results' manifest. */
  manifest: unknown;
  /** Webhook deliveries received, in arrival order. */
  webhooks: { event: string; signatureValid: boolean; payload: Record<string, unknown> }[];
  /** The account's ledger entries for this job, oldest first. */
  ledger: { kind: string; amount: number; reason: string | null }[];
}

/**
 * Rules. Files: the same names and types; the same bytes where rendering is deterministic (captions, JSON, and in
 * practice every file: FFmpeg with the same input and settings), else a size within `sizeTolerance` for video and
 * images (.mp4/.jpg), noted. Webhooks: the same events in the same order, each signed, each payload equal once
 * what differs between any two jobs by nature is set aside (the job id, links, timestamps, ids of deliveries).
 * Ledger: the same entries (kind, amount, reason) in the same order. Job record: same status, progress, cost,
 * refund and error.
 */
export interface CompareOptions {
  sizeTolerance: number;
}

const VOLATILE_KEY = /(^|_)(url|urls|at|id)$|^timestamp$|^attempts?$/;

/** The value with the job id replaced by "<job>" and the keys that differ between any two jobs removed. */
export function normalise(value: unknown, jobId: string): unknown {
  if (typeof value === "string") return value.split(jobId).join("<job>");
  if (Array.isArray(value)) return value.map((v) => normalise(v, jobId));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !VOLATILE_KEY.test(k) || k === "job_id")
        .map(([k, v]) => [k, k === "job_id" ? "<job>" : normalise(v, jobId)]),
    );
  }
  return value;
}

const isMedia = (name: string) => /\.(mp4|jpg)$/.test(name);

export interface Comparison {
  /** Why the two outcomes are not the same (empty: the same). */
  differences: string[];
  /** Files whose bytes differ but whose size is within tolerance (allowed, listed). */
  withinTolerance: string[];
  identicalFiles: number;
}

function stripSizes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSizes);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "size_bytes").map(([k, v]) => [k, stripSizes(v)]));
  return value;
}

export function compareOutcomes(reference: JobOutcome, candidate: JobOutcome, opts: CompareOptions = { sizeTolerance: 0.02 }): Comparison {
  const differences: string[] = [];
  const withinTolerance: string[] = [];
  let identicalFiles = 0;
  const same = (what: string, a: unknown, b: unknown) => {
    const [ja, jb] = [JSON.stringify(a), JSON.stringify(b)];
    if (ja !== jb) differences.push(`${what}: ${ja.slice(0, 400)} vs ${jb.slice(0, 400)}`);
  };

  same("job record", normalise(reference.job, reference.job_id), normalise(candidate.job, candidate.job_id));

  const names = (o: JobOutcome) => o.files.map((f) => `${f.name} (${f.type})`).sort();
  same("file names", names(reference), names(candidate));
  const byName = new Map(candidate.files.map((f) => [f.name, f]));
  for (const f of reference.files) {
    const g = byName.get(f.name);
    if (!g) continue;
    if (f.sha256 === g.sha256) {
      identicalFiles += 1;
      continue;
    }
    const ratio = Math.abs(f.size_bytes - g.size_bytes) / Math.max(1, f.size_bytes);
    if (isMedia(f.name) && ratio <= opts.sizeTolerance) withinTolerance.push(`${f.name}: ${f.size_bytes} vs ${g.size_bytes} bytes`);
    else differences.push(`file ${f.name}: ${f.size_bytes} bytes (${f.sha256.slice(0, 12)}) vs ${g.size_bytes} bytes (${g.sha256.slice(0, 12)})`);
  }
  const tolerated = withinTolerance.length > 0;
  const manifest = (o: JobOutcome) => normalise(tolerated ? stripSizes(o.manifest) : o.manifest, o.job_id);
  same("manifest", manifest(reference), manifest(candidate));

  same("webhook events", reference.webhooks.map((w) => w.event), candidate.webhooks.map((w) => w.event));
  for (const [label, o] of [["undisturbed", reference], ["disturbed", candidate]] as const) {
    const unsigned = o.webhooks.filter((w) => !w.signatureValid).map((w) => w.event);
    if (unsigned.length) differences.push(`${label}: webhooks with a bad signature: ${unsigned.join(", ")}`);
  }
  reference.webhooks.forEach((w, i) => {
    const v = candidate.webhooks[i];
    if (!v || v.event !== w.event) return;
    const payload = (o: JobOutcome, p: Record<string, unknown>) => normalise(tolerated ? stripSizes(p) : p, o.job_id);
    same(`webhook ${i + 1} (${w.event}) payload`, payload(reference, w.payload), payload(candidate, v.payload));
  });

  same("ledger entries", reference.ledger.map((e) => ({ ...e, reason: normalise(e.reason, reference.job_id) })), candidate.ledger.map((e) => ({ ...e, reason: normalise(e.reason, candidate.job_id) })));
  return { differences, withinTolerance, identicalFiles };
}
