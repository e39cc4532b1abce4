import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export interface HeldRequest {
  path: string;
  /** Resolves when the request's connection closes before it was answered (the client gave up). */
  gone: Promise<void>;
}

/** Resolve (or return) to let a request go on to the target; a request whose client left meanwhile is not sent. */
export type HoldPolicy = (req: HeldRequest) => Promise<void> | void;

export interface HoldingProxy {
  url: string;
  /** Requests open now and at most at once, from arrival until answered or dropped. */
  open: number;
  maxOpen: number;
  /** Paths in order of arrival, of answers completed and of requests closed before their answer was complete. */
  seen: string[];
  answered: string[];
  dropped: string[];
  /** The same URL of the target, through this proxy. */
  via(url: string): string;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a local server that holds requests as the test's policy says, so a test controls
 * how requests overlap instead of hoping for timings. The Host header is passed on, so a server that builds
 * URLs from it (the Twitch server's playlists) points them at the proxy.
 */
export async function startHoldingProxy(target: string, policy: HoldPolicy = () => undefined): Promise<HoldingProxy> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    const p = req.url ?? "/";
    proxy.seen.push(p);
    proxy.open++;
    proxy.maxOpen = Math.max(proxy.maxOpen, proxy.open);
    let closed = false;
    const gone = new Promise<void>((resolve) =>
      res.once("close", () => {
        closed = true;
        proxy.open--;
        (res.writableFinished ? proxy.answered : proxy.dropped).push(p);
        resolve();
      }),
    );
    void Promise.resolve()
      .then(() => policy({ path: p, gone }))
      .then(() => {
        if (closed) return;
        const { connection: _c, ...headers } = req.headers;
        const up = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: p, headers: { ...headers, connection: "close" }, agent: false }, (answer) => {
          const { connection: _k, ...answerHeaders } = answer.headers;
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(res);
          answer.on("error", () => res.destroy());
        });
        up.on("error", () => res.destroy());
        res.once("close", () => up.destroy());
        req.pipe(up);
      }, () => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy: HoldingProxy = {
    url,
    open: 0,
    maxOpen: 0,
    seen: [],
    answered: [],
    dropped: [],
    via: (u) => {
      const x = new URL(u);
      return `${url}${x.pathname}${x.search}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  return proxy;
}

/**
 * Holds the first `n` requests until `n` are waiting together (or `timeoutMs` passes), then lets them all go;
 * later requests pass at once. Proves requests really overlap, however slowly the client gets them out.
 */
export function holdFirstBatch(n: number, timeoutMs = 10_000): HoldPolicy & { timedOut: boolean } {
  let waiting = 0;
  let released = false;
  let release!: () => void;
  const all = new Promise<void>((r) => (release = r));
  const policy = Object.assign(
    async () => {
      if (released) return;
      if (++waiting >= n) {
        released = true;
        release();
        return;
      }
      const timer = setTimeout(() => {
        policy.timedOut = true;
        released = true;
        release();
      }, timeoutMs);
      await all;
      clearTimeout(timer);
    },
    { timedOut: false },
  );
  return policy;
}

/** Holds requests `matches` picks until their client gives up (or `timeoutMs` passes); others pass at once. */
export function holdUntilDropped(matches: (path: string) => boolean, timeoutMs = 10_000): HoldPolicy {
  return async ({ path, gone }) => {
    if (!matches(path)) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  };
}
