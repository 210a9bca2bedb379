package bench

import (
	"context"
	_ "embed"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/internal/ctool"
)

// cacheAllocC is the caching allocator's source (shim/cachealloc.c).
//
//go:embed shim/cachealloc.c
var cacheAllocC string

// BuildCachingAllocator compiles the caching allocator with cc into dir
// and returns the shared object's path, for LD_PRELOAD: large blocks a
// program frees are reused by its later allocations, so that whole-image
// buffers allocated per call cost their page faults once (see
// shim/cachealloc.c).
func BuildCachingAllocator(ctx context.Context, cc, dir string) (string, error) {
	so := filepath.Join(dir, "libtfcache.so")
	err := ctool.Compile(ctx, cc, nil, cacheAllocC, filepath.Join(dir, "cachealloc.c"), so, []string{"-O2", "-shared", "-fPIC"}, "-lpthread")
	return so, err
}

// streamC is the bandwidth probe's source (shim/stream.c).
//
//go:embed shim/stream.c
var streamC string

// MeasureBandwidth compiles and runs the streaming probe with cc in dir on
// threads threads and returns the machine's streaming bandwidth in bytes
// per second.
func MeasureBandwidth(ctx context.Context, cc, dir string, threads int) (float64, error) {
	bin := filepath.Join(dir, "stream")
	if err := ctool.Compile(ctx, cc, nil, streamC, filepath.Join(dir, "stream.c"), bin, []string{"-O2", "-fopenmp"}); err != nil {
		return 0, err
	}
	out, err := ctool.Output(ctx, []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads)}, bin)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
}
