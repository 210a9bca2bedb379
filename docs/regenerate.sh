#!/bin/sh
# Regenerates the pictures of the README. Each line is checked by
# TestDocsPictures (cmd/tilefuse/docs_test.go): it runs the command and
# compares the output with the committed file, so a change that alters a
# picture must come with the regenerated picture. docs/bench-polymage.json
# is the output of a real run (2026-12-07, 2-core AMD EPYC, load 0.5-1.4,
# the Halide apps' tree at /work/halide-src):
#   go run ./cmd/tilefuse bench polymage --strategies auto,post \
#     --peers gcc,polly,halide,halide-app,halide-auto,halide-adams --halide-src DIR \
#     --alloc caching --repeat 5 --json docs/bench-polymage.json
set -e
cd "$(dirname "$0")/.."
go run ./cmd/tilefuse draw tiles --tile 16,16 --size R=36,C=36 polymage/harris -o docs/tiles-harris.svg
go run ./cmd/tilefuse draw tiles --tile 8,8,64 polybench/jacobi-2d -o docs/tiles-jacobi-2d.svg
go run ./cmd/tilefuse draw tree --fuse post polymage/unsharp_mask -o docs/tree-unsharp_mask.svg
go run ./cmd/tilefuse plot docs/bench-polymage.json -o docs/bench-polymage.svg
