#!/usr/bin/env bash
# The docker command `wrangler dev` runs (WRANGLER_DOCKER_BIN) when containers are enabled. Two things wrangler
# 4.86 assumes that a plain Docker engine does not give:
# - `docker build --load --provenance=false ...`: both flags belong to buildx. Without the buildx plugin the
#   classic builder refuses them, so they are dropped (the classic builder stores the image locally anyway,
#   which is all `--load` asks for; `--provenance=false` only turns off an attestation).
# - `docker pull <image>` of the networking sidecar image: a locally built image (the stand-in, see
#   sidecar/sidecar.mjs) is not on any registry, so a pull of an image that already exists here is skipped.
# Everything else goes to the real docker unchanged. REAL_DOCKER overrides which docker that is.
set -euo pipefail
real="${REAL_DOCKER:-docker}"
case "${1:-}" in
  build)
    if ! "$real" buildx version >/dev/null 2>&1; then
      args=()
      for a in "$@"; do
        case "$a" in --load | --provenance=false) ;; *) args+=("$a") ;; esac
      done
      set -- "${args[@]}"
    fi
    ;;
  pull)
    if "$real" image inspect "${2:-}" >/dev/null 2>&1; then
      echo "docker-shim: ${2} is present locally, not pulled" >&2
      exit 0
    fi
    ;;
esac
exec "$real" "$@"
