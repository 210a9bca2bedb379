#!/bin/sh
# Prints the verified table of run.sh's archive: each binary equal to the
# reference bit for bit or not, its first-call and steady-state times.
# Exit status 1 when any binary failed or differs.
# Usage: scripts/gpu/read.sh ARCHIVE
set -eu
[ $# -eq 1 ] || { echo "usage: scripts/gpu/read.sh ARCHIVE" >&2; exit 2; }
archive=$(realpath "$1")
cd "$(dirname "$0")/../.."
exec go run ./cmd/tilefuse gpu read "$archive"
