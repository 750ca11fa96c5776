#!/usr/bin/env bash
# The test command: every test of the workspace, with the Python driver that the
# differential token tests compare against. Snapshots must match (no auto-update).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/py-venv.sh
INSTA_UPDATE=no cargo test --workspace --locked
