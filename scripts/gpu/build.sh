#!/bin/sh
# Builds every GPU binary on this machine into one directory (default
# build/gpu): the PTX of each program (llc -march=nvptx64), generic x86-64
# host binaries that load libcuda.so.1 through the driver API, the manifest
# of their inputs' and references' SHA-256, and a static tilefuse for the
# GPU machine (run.sh runs it there). Needs go, LLVM 14, gcc and libclc-14.
# Usage: scripts/gpu/build.sh [DIR] [gpu build flags...]
set -eu
root=$(dirname "$0")/../..
dir=$(realpath -m "${1:-$root/build/gpu}")
[ $# -gt 0 ] && shift
cd "$root"
# A new bundle: what an earlier build left is removed, nothing else.
rm -rf "$dir/bin" "$dir/ptx" "$dir/manifest.json" "$dir/tilefuse"
mkdir -p "$dir"
CGO_ENABLED=0 go build -o "$dir/tilefuse" ./cmd/tilefuse
"$dir/tilefuse" gpu build "$@" "$dir"
# A PTX module that calls a function nothing defines would not load.
if grep -l '\.extern \.func' "$dir"/ptx/*.ptx; then
	echo "build.sh: the PTX files above call external functions" >&2
	exit 1
fi
du -sh "$dir"
