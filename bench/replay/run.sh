#!/usr/bin/env bash
# Replay benchmark (issue 47): replay loads against static file loads of the same bytes (see
# bench/README.md). Arguments go to bench/replay/main.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx tsx bench/replay/main.ts "$@"
