#!/usr/bin/env bash
# Dashboard benchmark (issue 14): raises the open-file limit (10,000 fan sockets), then runs
# bench/dashboard/main.ts with the arguments given.
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
exec npx tsx bench/dashboard/main.ts "$@"
