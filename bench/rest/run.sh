#!/usr/bin/env bash
# REST benchmark: the hot party calls on SQLite and PostgreSQL against a bare node:http ceiling
# (see bench/README.md). Arguments go to bench/rest/main.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx tsx bench/rest/main.ts "$@"
