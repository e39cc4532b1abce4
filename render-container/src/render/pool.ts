/**
 * Runs tasks with at most `limit` in flight, results in input order. The first failure aborts the others
 * through the shared controller, so a failed piece does not leave encoders running.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  parent?: AbortSignal,
): Promise<R[]> {
  const ctrl = new AbortController();
  const onParent = () => ctrl.abort(parent?.reason);
  if (parent?.aborted) onParent();
  parent?.addEventListener("abort", onParent, { once: true });
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i, ctrl.signal);
      } catch (err) {
        if (!failure) failure = { err };
        ctrl.abort(err);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  } finally {
    parent?.removeEventListener("abort", onParent);
  }
  if (failure) throw (failure as { err: unknown }).err;
  return results;
}
