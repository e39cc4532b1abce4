#!/usr/bin/env bash
# `npm run test:containers`: one job through the real Cloudflare Container path on this machine.
#
# 1. Docker: Debian's docker.io is installed if no dockerd exists, and dockerd is started if none answers
#    (with --bip, so the bridge network lists its gateway: workerd binds its container egress listener there).
# 2. Images: the base node:22-bookworm-slim (pulled, or where Docker Hub is unreachable the local stand-in of
#    scripts/docker-local-base.sh), the renderer image from render-container/Dockerfile (built here once so its
#    time and errors show; wrangler's own build of the same Dockerfile is then a cache hit), and the networking
#    sidecar `wrangler dev` runs beside every container (Cloudflare's image, or the stand-in in
#    dev/containers/sidecar/ when it cannot be pulled).
# 3. dev/containers/run-container-job.ts: the local Twitch server with a synthetic VOD, `wrangler dev` with
#    containers enabled and no RENDER_URL, an account, one job through the RenderContainer Durable Object, the
#    deliverables downloaded and checked with ffprobe, and a PASS/FAIL summary with timings.
#
# Needs root (apt-get, dockerd, mmdebstrap). Settings (environment): EXTRA_CA_FILE (default NODE_EXTRA_CA_CERTS,
# else the system bundle) for the base stand-in behind a TLS-inspecting proxy; TIMEOUT_MINUTES for the job (30); KEEP_DOCKERD=1 leaves
# a dockerd this script started running afterwards. Logs: .local/containers/.
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=.local/containers
mkdir -p "$STATE"
# Cloudflare's sidecar image, as wrangler 4.86 / workerd 2026-04-26 name it.
CF_SIDECAR="cloudflare/proxy-everything:3cb1195@sha256:0ef6716c52430096900b150d84a3302057d6cd2319dae7987128c85d0733e3c8"
STANDIN_SIDECAR="highlight-container-sidecar:local"
RENDERER_IMAGE="highlight-renderer:local"

t_start=$(date +%s)
declare -a timings=()
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
step() { echo; echo "▸ $*"; step_t0=$(now_ms); }
done_step() { local ms=$(( $(now_ms) - step_t0 )); timings+=("$(printf '%5d.%d s  %s' $((ms / 1000)) $((ms % 1000 / 100)) "$1")"); }

[ "$(id -u)" -eq 0 ] || { echo "run as root: dockerd, apt-get and mmdebstrap need it" >&2; exit 2; }

step "Docker engine"
started_dockerd=""
cleanup() {
  # Containers workerd leaves behind when wrangler stops (it removes them best effort; the sidecar often stays).
  docker ps -aq --filter name=workerd-highlight-api- 2>/dev/null | xargs -r docker rm -f >/dev/null 2>&1 || true
  if [ -n "$started_dockerd" ] && [ "${KEEP_DOCKERD:-}" != 1 ]; then
    kill "$started_dockerd" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$started_dockerd" 2>/dev/null || break; sleep 0.2; done
  fi
}
trap cleanup EXIT
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null; then
    echo "  installing Debian's docker.io (and mmdebstrap for the base image stand-in)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io mmdebstrap >"$STATE/apt.log" 2>&1
  fi
  echo "  starting dockerd (log: $STATE/dockerd.log)"
  dockerd --bip 172.17.0.1/16 >"$STATE/dockerd.log" 2>&1 &
  started_dockerd=$!
  for _ in $(seq 1 150); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not come up; see $STATE/dockerd.log" >&2; exit 1; }
fi
gw=$(docker network inspect bridge --format '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
if [ -z "$gw" ]; then
  echo "Docker's bridge network lists no gateway (a dockerd started without --bip): workerd cannot start containers." >&2
  echo "Restart dockerd with --bip 172.17.0.1/16, or put {\"bip\": \"172.17.0.1/16\"} in /etc/docker/daemon.json." >&2
  exit 1
fi
echo "  $(docker version --format 'server {{.Server.Version}}, client {{.Client.Version}}'), bridge gateway $gw"
done_step "Docker engine ready"

step "Base image node:22-bookworm-slim"
if docker image inspect node:22-bookworm-slim >/dev/null 2>&1; then
  echo "  present"
elif timeout 120 docker pull node:22-bookworm-slim >"$STATE/pull-base.log" 2>&1; then
  echo "  pulled"
else
  command -v mmdebstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; }
  echo "  Docker Hub unreachable: building the local stand-in (log: $STATE/base.log)"
  # The host's CA bundle goes into the stand-in: where HTTPS passes a TLS-inspecting proxy (as here), `npm ci` in
  # the image build trusts only what the host trusts; elsewhere it is the same public bundle and changes nothing.
  ca="${EXTRA_CA_FILE:-${NODE_EXTRA_CA_CERTS:-}}"
  [ -n "$ca" ] || [ ! -f /etc/ssl/certs/ca-certificates.crt ] || ca=/etc/ssl/certs/ca-certificates.crt
  EXTRA_CA_FILE="$ca" bash scripts/docker-local-base.sh >"$STATE/base.log" 2>&1 || { tail -20 "$STATE/base.log"; exit 1; }
fi
done_step "Base image"

step "Renderer image from render-container/Dockerfile (log: $STATE/image.log)"
docker build -f render-container/Dockerfile -t "$RENDERER_IMAGE" . >"$STATE/image.log" 2>&1 || { tail -30 "$STATE/image.log"; exit 1; }
echo "  $(docker image inspect "$RENDERER_IMAGE" --format '{{.Id}} {{.Size}}' | awk '{printf "%s, %.0f MB", substr($1,8,12), $2/1e6}')"
done_step "Renderer image"

step "Networking sidecar image for wrangler dev"
egress_image=""
if docker image inspect "$CF_SIDECAR" >/dev/null 2>&1 || timeout 120 docker pull "$CF_SIDECAR" >"$STATE/pull-sidecar.log" 2>&1; then
  echo "  Cloudflare's $CF_SIDECAR"
else
  docker build -t "$STANDIN_SIDECAR" dev/containers/sidecar >"$STATE/sidecar.log" 2>&1 || { tail -20 "$STATE/sidecar.log"; exit 1; }
  egress_image="$STANDIN_SIDECAR"
  echo "  cannot pull Cloudflare's image: the stand-in $STANDIN_SIDECAR (dev/containers/sidecar/)"
fi
done_step "Sidecar image"
docker ps -aq --filter name=workerd-highlight-api- | xargs -r docker rm -f >/dev/null 2>&1 || true

rc=0
node_modules/.bin/tsx dev/containers/run-container-job.ts --state "$STATE" --egress-image "$egress_image" --timeout-minutes "${TIMEOUT_MINUTES:-30}" || rc=$?

echo
echo "== preparation (this script)"
printf '  %s\n' "${timings[@]}"
echo "  total $(( $(date +%s) - t_start )) s, exit $rc"
exit $rc
