#!/usr/bin/env bash
# Memory under fuzzing: the server fed the OpenAPI fuzz test's requests, memory after GC and heap
# snapshots before and after (bench/fuzzmem/main.ts; arguments pass through).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx tsx bench/fuzzmem/main.ts "$@"
