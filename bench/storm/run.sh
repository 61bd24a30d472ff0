#!/usr/bin/env bash
# Reconnect storm benchmark: raises the open-file limit, then runs bench/storm/main.ts with the
# arguments given (see bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open-file limit: $(ulimit -n)"
exec npx tsx bench/storm/main.ts "$@"
