// Stand-in for the networking sidecar that `wrangler dev` (workerd 2026-04-26) runs beside every local
// container: Cloudflare's `cloudflare/proxy-everything` image, which lives on Docker Hub. Where Docker Hub is
// unreachable that image cannot be pulled and no container starts at all, so dev/containers/ builds this one
// instead and names it in MINIFLARE_CONTAINER_EGRESS_IMAGE.
//
// What workerd needs from the sidecar, and all this does (read from workerd's container client):
// - it owns the network namespace: the app container is created with NetworkMode "container:<sidecar>", so
//   127.0.0.1 here is the app's loopback too;
// - ingress: workerd publishes port 39001 and reaches a container port by `CONNECT` with the header
//   `X-Dst-Addr: 127.0.0.1:<port>`; 200 and a byte tunnel when the port accepts, 400 when nothing listens
//   (workerd reads that as "not listening yet" while the container starts);
// - `PUT /egress` {port, dns, internet}: where workerd's egress listener is; answered 200 (also the readiness
//   probe workerd retries after starting the sidecar);
// - `GET /ca`: the CA certificate workerd copies into the app container when the Worker intercepts HTTPS.
//
// What it does not do: intercept the app's outbound traffic (the real sidecar redirects it with iptables
// TPROXY to workerd, which applies `enableInternet`, `outboundByHost` and friends). Here outbound traffic leaves
// through Docker's bridge unchanged. The real sidecar also lets traffic to the bridge's own network through
// untouched, which is the only outbound path the container test uses (the Worker and the local Twitch server
// on the bridge gateway), so that path is the same with either sidecar. Plain Node, no dependencies.
import { createServer } from "node:http";
import net from "node:net";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const [ingressHost, ingressPort] = (flag("--http-ingress-address") ?? "0.0.0.0:39001").split(/:(?=\d+$)/);
const log = (msg, fields = {}) => console.log(JSON.stringify({ at: new Date().toISOString(), msg, ...fields }));

let egress = { port: Number(flag("--http-egress-port")) || null, internet: null, dns: null };

// Not a CA anyone trusts: this stand-in never terminates TLS. workerd only requires the request to succeed
// and copies the text into the app container when the Worker intercepts HTTPS (this project does not).
const CA_PLACEHOLDER = "# container-sidecar stand-in: no TLS interception, no CA certificate\n";

function readBody(req) {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

const server = createServer(async (req, res) => {
  if (req.method === "PUT" && req.url === "/egress") {
    try {
      const update = JSON.parse(await readBody(req));
      if (typeof update !== "object" || update === null || (update.port === undefined && update.internet === undefined && update.dns === undefined)) throw new Error("empty update");
      egress = { ...egress, ...update };
      log("egress configuration", egress);
      res.writeHead(200).end();
    } catch (err) {
      res.writeHead(400, { "content-type": "text/plain" }).end(`bad egress update: ${err.message}\n`);
    }
    return;
  }
  if (req.method === "GET" && req.url === "/ca") {
    res.writeHead(200, { "content-type": "application/x-pem-file" }).end(CA_PLACEHOLDER);
    return;
  }
  res.writeHead(404).end();
});

// Ingress: workerd -> the app's port, inside the shared network namespace.
server.on("connect", (req, clientSocket, head) => {
  const target = String(req.headers["x-dst-addr"] ?? "");
  const m = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]):(\d{1,5})$/i.exec(target);
  if (!m) {
    clientSocket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    log("ingress refused: X-Dst-Addr must be IP:port", { target });
    return;
  }
  const host = m[1].replace(/^\[|\]$/g, "");
  const upstream = net.connect({ host, port: Number(m[2]) });
  let connected = false;
  upstream.once("connect", () => {
    connected = true;
    clientSocket.write("HTTP/1.1 200 OK\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(clientSocket);
    clientSocket.pipe(upstream);
  });
  upstream.once("error", (err) => {
    if (!connected && clientSocket.writable) {
      // Nothing listens there (yet): workerd retries until the app is up.
      clientSocket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    } else {
      clientSocket.destroy();
    }
    if (err.code !== "ECONNREFUSED") log("ingress tunnel error", { target, error: err.message });
  });
  clientSocket.on("error", () => upstream.destroy());
  clientSocket.on("close", () => upstream.destroy());
});

server.listen(Number(ingressPort), ingressHost, () => log("container-sidecar stand-in listening", { ingress: `${ingressHost}:${ingressPort}`, egress_port: egress.port, ignored_flags: args.filter((a) => ["--dns-enabled", "--tls-intercept", "--disable-ipv6"].includes(a)) }));

// PID 1 in its container: without handlers Node would ignore SIGTERM and `docker stop` would wait 10 s.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 500).unref();
  });
}
