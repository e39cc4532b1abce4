/**
 * Runs branches at the same time, each with a signal that aborts when the job's does or when another branch
 * fails. Unlike Promise.all, it settles only once every branch has: a branch's child processes are gone
 * (runProcess settles after the child exits) before the caller goes on, so a cancelled or failed job never
 * deletes its work folder under an FFmpeg that is still writing into it. Rejects with the first failure.
 */
export async function sideBySide<T extends unknown[]>(parent: AbortSignal, ...branches: { [K in keyof T]: (signal: AbortSignal) => Promise<T[K]> }): Promise<T> {
  const stop = new AbortController();
  const signal = AbortSignal.any([parent, stop.signal]);
  let failure: { err: unknown } | null = null;
  const results = await Promise.allSettled(
    branches.map((branch) =>
      start(branch, signal).catch((err: unknown) => {
        failure ??= { err };
        stop.abort(err);
        throw err;
      }),
    ),
  );
  if (failure) throw (failure as { err: unknown }).err;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}

/** Starts a branch now (so it sees an abort that follows at once), turning a synchronous throw into a rejection. */
function start<T>(branch: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return branch(signal);
  } catch (err) {
    return Promise.reject(err);
  }
}
