#!/bin/sh
# Runs the binaries of build.sh on a GPU machine that has the NVIDIA
# driver and nothing else, in under 5 minutes (no binary is started after
# 270 s, each is stopped after 60 s), and packs the results into one
# archive, $OUT/tilefuse-gpu.tar.gz (OUT defaults to the current
# directory). Usage: scripts/gpu/run.sh [DIR]   (default build/gpu)
set -eu
root=$(dirname "$0")/../..
dir=$(realpath -m "${1:-$root/build/gpu}")
out=$(realpath -m "${OUT:-.}")
mkdir -p "$out"
"$dir/tilefuse" gpu run --for 270s "$dir" "$out/tilefuse-gpu.tar.gz"
echo "run.sh: wrote $out/tilefuse-gpu.tar.gz"
