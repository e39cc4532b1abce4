import type { JobStatus } from "../../../common/contract";

/**
 * Share of the reserved credits returned on cancel. Pending jobs have used nothing; a running job has spent
 * compute roughly in proportion to its progress, so each quarter of progress keeps a quarter more.
 */
export const CANCEL_REFUND_TIERS: ReadonlyArray<{ status: JobStatus; progressBelow: number | null; share: number }> = [
  { status: "pending", progressBelow: null, share: 1 },
  { status: "running", progressBelow: 25, share: 0.75 },
  { status: "running", progressBelow: 50, share: 0.5 },
  { status: "running", progressBelow: 75, share: 0.25 },
  { status: "running", progressBelow: null, share: 0 },
];

export function cancelRefundShare(status: "pending" | "running", progress: number): number {
  if (status === "pending") return 1;
  for (const tier of CANCEL_REFUND_TIERS) {
    if (tier.status !== "running") continue;
    if (tier.progressBelow === null || progress < tier.progressBelow) return tier.share;
  }
  return 0;
}

export function cancelRefundCredits(creditCost: number, status: "pending" | "running", progress: number): number {
  return Math.floor(creditCost * cancelRefundShare(status, progress));
}
