#!/usr/bin/env bash
# One command from a fresh clone to a finished demo job: system packages, npm packages, the whole local stack
# (Twitch-compatible server + sample VOD, renderer, Worker with local D1/R2/Queues/Durable Objects, migrations),
# a development account, then the demo. The services keep running afterwards (Ctrl-C stops them);
# pass --exit to stop after the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
exec node_modules/.bin/tsx dev/stack/start.ts --demo "$@"
