#!/usr/bin/env bash
# Fan-out benchmark: raises the open-file limit (every socket is a descriptor on both ends), then
# runs bench/fanout/main.ts with the arguments given (see bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
echo "open-file limit: $(ulimit -n)"
entry=bench/fanout/main.ts
exec npx tsx "$entry" "$@"
