#!/usr/bin/env bash
# Scale-out benchmark: raises the open-file limit, then runs bench/scaleout/main.ts with the
# arguments given (see bench/README.md). Needs PostgreSQL and Redis on 127.0.0.1 (PG_URL, REDIS_URL).
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open-file limit: $(ulimit -n)"
exec npx tsx bench/scaleout/main.ts "$@"
