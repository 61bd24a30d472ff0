#!/usr/bin/env bash
# Lighthouse (mobile) against the real server built as `npm start` does:
#   bash bench/lighthouse/run.sh [campaign|party|all] [--runs 3]
# campaign: the demo campaign pages (results lighthouse-campaign-*); party: the party app's home and
# waiting screens (results lighthouse-party-*). Lighthouse is NOT a dependency of the project: 13.x
# needs Node 22, so 12.8.2 is installed outside the repository (LIGHTHOUSE_PREFIX, default /tmp/lh)
# on first use.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHROME="${CHROMIUM_PATH:-/usr/bin/chromium}"
PREFIX="${LIGHTHOUSE_PREFIX:-/tmp/lh}"
WHICH="all"
case "${1:-}" in campaign|party|all) WHICH="$1"; shift ;; esac
if [ ! -x "$CHROME" ]; then
  echo "Chromium not found at $CHROME: apt-get install -y chromium" >&2
  exit 1
fi
if [ ! -x "$PREFIX/node_modules/.bin/lighthouse" ]; then
  mkdir -p "$PREFIX"
  npm install --no-audit --no-fund --prefix "$PREFIX" lighthouse@12.8.2
fi
LH=(--lighthouse "$PREFIX/node_modules/.bin/lighthouse" --chrome "$CHROME")
if [ "$WHICH" != party ]; then
  npm run --workspace @fanfare/campaign-web build >/dev/null
  npx tsx bench/lighthouse/main.ts "${LH[@]}" "$@"
fi
if [ "$WHICH" != campaign ]; then
  npm run --workspace @fanfare/party-web build >/dev/null
  npx tsx bench/lighthouse/party.ts "${LH[@]}" "$@"
fi
