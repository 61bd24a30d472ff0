#!/usr/bin/env bash
# Rolling-restart benchmark: raises the open-file limit, then runs bench/rolling/main.ts with the
# arguments given (see bench/README.md). Needs nginx, PostgreSQL and Redis on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open-file limit: $(ulimit -n)"
exec npx tsx bench/rolling/main.ts "$@"
