/**
 * Reads the rest of a request body that a reader stopped reading early (e.g. at a size limit) and throws it away.
 * Answering while a body read in part (or cancelled) is still arriving breaks the connection under it: on the
 * local stack (wrangler dev's proxy in front of workerd) the next request, even another client's on another
 * connection, then fails with 503 "Your worker restarted mid-request" (issue 23, point 9;
 * test/e2e/oversized-body.e2e.test.ts). Reading to the end prevents it. On Cloudflare a body is bounded by the
 * plan's request limit (100 MB Free/Pro) before the Worker sees it, so the wait is bounded too.
 */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (;;) if ((await reader.read()).done) return;
  } catch {
    // The client went away: nothing left to wait for.
  }
}
