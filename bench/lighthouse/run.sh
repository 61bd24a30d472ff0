#!/usr/bin/env bash
# Lighthouse (mobile) on the demo campaign pages, against the real server built as `npm start` does.
# Lighthouse is NOT a dependency of the project: 13.x needs Node 22, so 12.8.2 is installed outside
# the repository (LIGHTHOUSE_PREFIX, default /tmp/lh) on first use.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHROME="${CHROMIUM_PATH:-/usr/bin/chromium}"
PREFIX="${LIGHTHOUSE_PREFIX:-/tmp/lh}"
if [ ! -x "$CHROME" ]; then
  echo "Chromium not found at $CHROME: apt-get install -y chromium" >&2
  exit 1
fi
if [ ! -x "$PREFIX/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$PREFIX"
  npm install --no-audit --no-fund --prefix "$PREFIX" lighthouse@12.8.2
fi
npm run --workspace @fanfare/campaign-web build >/dev/null
exec npx tsx bench/lighthouse/main.ts --lighthouse "$PREFIX/node_modules/.bin/lighthouse" --chrome "$CHROME" "$@"
