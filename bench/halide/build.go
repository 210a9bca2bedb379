package halide

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/runner"
)

// Options say how to build a pipeline.
type Options struct {
	Schedule Schedule
	// Params are the sizes the benchmark runs at: the autoscheduler's
	// estimates (generator parameters of the same names).
	Params map[string]int64
	// Threads is the parallelism the autoscheduler plans for (its
	// machine parameters; at least 1).
	Threads int
	// StrictFloat builds with Halide's strict_float target feature: no
	// reassociation and no fused multiply-adds, so that the results are
	// those of the C code and the reference, bit for bit.
	StrictFloat bool
}

// Target is the Halide target string of o: the machine's CPU as its
// flags say (HostTarget, not Halide's "host", which on AMD's Zen 4
// includes features it lacks), with strict_float when asked.
func (o Options) Target() string {
	t := HostTarget()
	if o.StrictFloat {
		t += "-strict_float"
	}
	return t
}

// pyramidHeader is the generators' shared header: the ringed pyramids'
// geometry (local_laplacian, pyramid_blending).
const pyramidHeader = "tf_pyramid.h"

// Kernel builds the pipeline name's generator (unless in.Cache holds
// it), runs it to compile the pipeline into a static library, and
// returns the kernel runner links into the harness: the wrapper as C,
// defining fn with tilefuse's C signature of the pipeline, and the
// library. The wrapper sets Halide's thread count from OMP_NUM_THREADS.
func (in *Install) Kernel(ctx context.Context, name, fn string, o Options) (runner.Kernel, error) {
	if !Has(name) {
		return runner.Kernel{}, fmt.Errorf("no Halide generator for %s", name)
	}
	gen, err := source(name + ".cpp")
	if err != nil {
		return runner.Kernel{}, err
	}
	wrap, err := source(name + "_wrap.c")
	if err != nil {
		return runner.Kernel{}, err
	}
	helpers, err := source("tf_halide.h")
	if err != nil {
		return runner.Kernel{}, err
	}
	cache := in.cacheDir()

	// The generator: the source with the header it may include,
	// Halide's own files and the compiler.
	pyramid, err := source(pyramidHeader)
	if err != nil {
		return runner.Kernel{}, err
	}
	mainKey, mainDir, err := in.generatorMain(ctx, cache)
	if err != nil {
		return runner.Kernel{}, err
	}
	genKey := in.key("generator", name, gen, pyramid, mainKey)
	genDir, err := cached(cache, "gen-"+genKey, func(dir string) error {
		cpp := filepath.Join(dir, name+".cpp")
		if err := os.WriteFile(cpp, []byte(gen), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, pyramidHeader), []byte(pyramid), 0o644); err != nil {
			return err
		}
		return ctool.Run(ctx, nil, in.CXX, "-std=c++17", "-O1", "-I", in.Include,
			"-o", filepath.Join(dir, "gen"), cpp, filepath.Join(mainDir, "GenGen.o"), in.Lib, "-ldl", "-lpthread")
	})
	if err != nil {
		return runner.Kernel{}, fmt.Errorf("building the Halide generator of %s: %w", name, err)
	}

	// The pipeline: the generator's run for the target and schedule.
	lib := name + "_halide"
	args := []string{"-g", name, "-f", lib, "-n", lib, "-e", "static_library,c_header", "target=" + o.Target()}
	if as := o.Schedule.Autoscheduler(); as != "" {
		plugin := in.plugin(o.Schedule)
		if _, err := os.Stat(plugin); err != nil {
			return runner.Kernel{}, fmt.Errorf("no %s autoscheduler: %s is missing (%s installs it)", as, plugin, Package)
		}
		// machine_params: the parallelism (Adams2019 uses this alone),
		// the last-level cache size and the cost of a load relative to
		// arithmetic (Mullapudi2016's defaults for the last two).
		args = append(args, "-p", plugin, "-s", as, "auto_schedule=true",
			fmt.Sprintf("machine_params=%d,16777216,40", max(o.Threads, 1)))
		for _, p := range slices.Sorted(maps.Keys(o.Params)) {
			args = append(args, p+"="+strconv.FormatInt(o.Params[p], 10))
		}
	}
	libKey := in.key("pipeline", genKey, helpers, fmt.Sprint(args))
	out, err := cached(cache, "lib-"+libKey, func(dir string) error {
		a := append([]string{"-o", dir}, args...)
		if err := ctool.Run(ctx, nil, filepath.Join(genDir, "gen"), a...); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "tf_halide.h"), []byte(helpers), 0o644)
	})
	if err != nil {
		return runner.Kernel{}, fmt.Errorf("compiling the Halide pipeline %s (%s): %w", name, o.Schedule, err)
	}
	return linked(wrap, name, fn, out, lib), nil
}

// cacheDir is where built generators and pipelines are kept.
func (in *Install) cacheDir() string {
	if in.Cache == "" {
		return filepath.Join(os.TempDir(), "tilefuse-halide")
	}
	return in.Cache
}

// generatorMain builds Halide's generator main once into cache and
// returns its key and directory. GenGen.cpp includes all of Halide.h:
// built once into an object that every generator links, it is not
// recompiled for each (about 10 s of g++ apiece).
func (in *Install) generatorMain(ctx context.Context, cache string) (key, dir string, err error) {
	key = in.key("generator main")
	dir, err = cached(cache, "main-"+key, func(dir string) error {
		return ctool.Run(ctx, nil, in.CXX, "-std=c++17", "-O1", "-I", in.Include,
			"-c", "-o", filepath.Join(dir, "GenGen.o"), in.GenGen)
	})
	if err != nil {
		return "", "", fmt.Errorf("building Halide's generator main: %w", err)
	}
	return key, dir, nil
}

// linked is the kernel runner links: the wrapper as C, defining name
// (renamed to fn by -D: the token alone, not the library's NAME_...),
// with the pipeline's static library lib in out.
func linked(wrap, name, fn, out, lib string) runner.Kernel {
	k := runner.Kernel{
		C: wrap, Func: fn,
		CFlags:  []string{"-O2", "-I", out},
		Objects: []string{filepath.Join(out, lib+".a")},
		LDFlags: []string{"-lpthread", "-ldl"},
	}
	if fn != name {
		k.CFlags = append(k.CFlags, "-D"+name+"="+fn)
	}
	return k
}

// key hashes parts with what identifies the installed Halide and
// compiler: a new Halide or g++ builds anew.
func (in *Install) key(parts ...string) string {
	h := sha256.New()
	for _, f := range []string{in.CXX, in.Lib, in.GenGen, in.Mullapudi, in.Adams, in.Li} {
		fmt.Fprintf(h, "%s\x00", f)
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(h, "%d %d\x00", st.Size(), st.ModTime().UnixNano())
		}
	}
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\x00", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// building holds a mutex per cache entry being looked up or built.
var building sync.Map

// cached returns the directory cache/name, making it with make when it
// is not there: make fills a fresh directory, renamed to name when it
// succeeds, so that an interrupted or concurrent build never leaves a
// half-made entry.
func cached(cache, name string, make func(dir string) error) (string, error) {
	final := filepath.Join(cache, name)
	// One builder per entry in this process (parallel tests share the
	// generator main); other processes race through the rename below.
	mu, _ := building.LoadOrStore(final, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cache, name+".tmp-")
	if err != nil {
		return "", err
	}
	if err := make(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(final); serr != nil {
			return "", err
		}
		// Another process made it first.
	}
	return final, nil
}
