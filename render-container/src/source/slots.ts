/**
 * A counting semaphore shared by several ordered downloads, so parallel files together stay within one bound.
 * Waiters are served first come, first served: a download asks for its segments in order, so the segment it
 * must write next always holds a slot before its later ones do, and slots held by fetched segments waiting
 * for an earlier one are always released.
 */
export class Slots {
  private free: number;
  private readonly waiters: { grant: () => void; reject: (reason: unknown) => void }[] = [];

  constructor(readonly size: number) {
    this.free = Math.max(1, size);
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      this.waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.free++;
  }
}
