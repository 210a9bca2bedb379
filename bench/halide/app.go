package halide

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/runner"
)

// An App is one of Halide's own v14 apps (apps/DIR in Halide's source
// tree) that bench runs as the halide-app peer: the app's generator,
// unchanged, with its own algorithm and CPU schedule, called through a
// wrapper (src/app/NAME_app_wrap.c) with the C signature of tilefuse's
// pipeline NAME.
type App struct {
	// Dir is the app's directory under apps/, Source its generator's
	// file there and Generator the name it registers.
	Dir, Source, Generator string
	// Differs says how the app's algorithm differs from tilefuse's port,
	// which is why its output is not checked against the reference.
	Differs string
}

// apps are the v14 apps for tilefuse's pipelines, by pipeline.
var apps = map[string]App{
	"camera_pipe": {"camera_pipe", "camera_pipe_generator.cpp", "camera_pipe",
		"the app sharpens after the curve, averages rounding up in u16 (the port floors in i16), clamps a pixel to [0, max of its neighbours] " +
			"(the port to [min, max]), has a 1024-entry curve scaled by 255 (the port's by 256) and a Q8.8 matrix in i16; " +
			"its output width is rounded down to a multiple of 64 and its height to one of 32 (its schedule's bounds)"},
	"interpolate": {"interpolate", "interpolate_generator.cpp", "interpolate",
		"the app repeats the image's edge where the port has a ring of zeros, and its pyramid filters taps 2x-1, 2x, 2x+1 (the port's 2x-2, 2x-1, 2x) " +
			"and up-samples from x/2 and (x+1)/2 (the port from (x+1)/2 and (x+2)/2)"},
	"harris": {"harris", "harris_generator.cpp", "harris",
		"the app computes a grey image from three channels first (here the grey input three times over) and weights the gradients' taps by k/12 (the port divides their sum by 12)"},
	"unsharp_mask": {"unsharp", "unsharp_generator.cpp", "unsharp",
		"the app is another algorithm: a grey image, a 7-tap Gaussian blur of it and the colours scaled by the sharpened grey's ratio (PolyMage's: a 5-tap blur of each channel, thresholded)"},
	"bilateral_grid": {"bilateral_grid", "bilateral_grid_generator.cpp", "bilateral_grid",
		"the app centres a grid cell on its pixels (offset s/2), repeats the image's edge, rounds the intensity bin (the port truncates) and slices with Halide's lerp"},
	"local_laplacian": {"local_laplacian", "local_laplacian_generator.cpp", "local_laplacian",
		"the app repeats the image's edge where the port has rings of zeros, its pyramid filters tap 2x-1..2x+2 (the port's 2x-3..2x) and up-sample with lerp, and its operations' order differs"},
}

// Apps lists the pipelines that have a Halide app, sorted.
func Apps() []string {
	var names []string
	for name := range apps {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// AppOf returns the app of the pipeline name.
func AppOf(name string) (App, bool) {
	a, ok := apps[name]
	return a, ok
}

// AppSource is the path of a's generator in the Halide source tree
// root.
func (a App) AppSource(root string) string {
	return filepath.Join(root, "apps", a.Dir, a.Source)
}

// CheckSource reports whether root looks like Halide's source tree: it
// has the generators of every app, and the error says which is missing.
func CheckSource(root string) error {
	for _, name := range Apps() {
		f := apps[name].AppSource(root)
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("%s is not Halide's v14 source tree: no %s", root, strings.TrimPrefix(f, root+string(filepath.Separator)))
		}
	}
	return nil
}

// AppKernel builds the generator of the app for the pipeline name from
// the Halide source tree root (unless in.Cache holds it), runs it for
// o's target (o's Schedule, Params and Threads are not used: the app
// schedules itself), and returns the kernel: the wrapper defining fn
// with tilefuse's C signature, and the app's static library.
func (in *Install) AppKernel(ctx context.Context, root, name, fn string, o Options) (runner.Kernel, error) {
	a, ok := apps[name]
	if !ok {
		return runner.Kernel{}, fmt.Errorf("no Halide app for %s", name)
	}
	gen, err := os.ReadFile(a.AppSource(root))
	if err != nil {
		return runner.Kernel{}, fmt.Errorf("the Halide app of %s: %w", name, err)
	}
	wrap, err := source("app/" + name + "_app_wrap.c")
	if err != nil {
		return runner.Kernel{}, err
	}
	helpers, err := source("tf_halide.h")
	if err != nil {
		return runner.Kernel{}, err
	}
	cache := in.cacheDir()
	mainKey, mainDir, err := in.generatorMain(ctx, cache)
	if err != nil {
		return runner.Kernel{}, err
	}
	// The app's generator includes halide_trace_config.h, which Debian
	// installs beside GenGen.cpp.
	genKey := in.key("app generator", name, string(gen), mainKey)
	genDir, err := cached(cache, "appgen-"+genKey, func(dir string) error {
		cpp := filepath.Join(dir, a.Source)
		if err := os.WriteFile(cpp, gen, 0o644); err != nil {
			return err
		}
		return ctool.Run(ctx, nil, in.CXX, "-std=c++17", "-O1", "-I", in.Include, "-I", filepath.Dir(in.GenGen),
			"-o", filepath.Join(dir, "gen"), cpp, filepath.Join(mainDir, "GenGen.o"), in.Lib, "-ldl", "-lpthread")
	})
	if err != nil {
		return runner.Kernel{}, fmt.Errorf("building the Halide app generator of %s: %w", name, err)
	}
	lib := name + "_app"
	args := []string{"-g", a.Generator, "-f", lib, "-n", lib, "-e", "static_library,c_header", "target=" + o.Target()}
	libKey := in.key("app pipeline", genKey, helpers, fmt.Sprint(args))
	out, err := cached(cache, "applib-"+libKey, func(dir string) error {
		if err := ctool.Run(ctx, nil, filepath.Join(genDir, "gen"), append([]string{"-o", dir}, args...)...); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "tf_halide.h"), []byte(helpers), 0o644)
	})
	if err != nil {
		return runner.Kernel{}, fmt.Errorf("compiling the Halide app %s: %w", a.Dir, err)
	}
	return linked(wrap, name, fn, out, lib), nil
}
