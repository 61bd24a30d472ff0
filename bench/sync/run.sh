#!/usr/bin/env bash
# Sync benchmark: headless Chromium fans playing one party over HLS (see bench/sync/main.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Chromium not found at ${CHROMIUM_PATH:-/usr/bin/chromium}: apt-get install -y chromium" >&2
  exit 1
fi
exec npx tsx bench/sync/main.ts "$@"
