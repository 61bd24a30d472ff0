#!/usr/bin/env bash
# Funnel aggregation benchmark: 1M events of one campaign summarised on SQLite and PostgreSQL,
# against a naive GROUP BY over the raw rows (bench/funnel/main.ts; arguments pass through).
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx tsx bench/funnel/main.ts "$@"
