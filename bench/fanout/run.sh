#!/usr/bin/env bash
# Fan-out benchmark: raises the open-file limit (every socket is a descriptor on both ends), then
# runs bench/fanout/main.ts with the arguments given, or with `floor` first, the write floor
# (bench/fanout/floor.ts; see bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open-file limit: $(ulimit -n)"
entry=bench/fanout/main.ts
if [ "${1:-}" = floor ]; then entry=bench/fanout/floor.ts; shift; fi
exec npx tsx "$entry" "$@"
