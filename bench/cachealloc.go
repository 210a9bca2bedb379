package bench

import (
	"context"
	_ "embed"
	"path/filepath"

	"tilefuse/internal/ctool"
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
