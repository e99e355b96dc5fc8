#!/usr/bin/env bash
# A longer contract-fuzzing run for occasional use (not part of the normal test command):
# schemathesis against every operation of openapi.yaml, in-process, all checks on.
#   bash benchmarks/fuzz_long.sh            # 1000 examples per operation
#   bash benchmarks/fuzz_long.sh 5000       # more
set -euo pipefail
cd "$(dirname "$0")/.."
CONTRACT_EXAMPLES="${1:-1000}" exec python -m pytest tests/test_openapi.py -k contract -q -p no:cacheprovider
