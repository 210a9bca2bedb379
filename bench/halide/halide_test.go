package halide

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
)

// install returns the machine's Halide with a cache of the test's own,
// or skips the test saying what to install.
func install(t *testing.T) *Install {
	t.Helper()
	in, err := Find(lookPath)
	if err != nil {
		t.Skipf("skipping: %v (apt-get install %s g++)", err, Package)
	}
	in.Cache = t.TempDir()
	return in
}

// lookPath finds programs on PATH and files by their absolute paths.
func lookPath(name string) (string, error) {
	if filepath.IsAbs(name) {
		_, err := os.Stat(name)
		return name, err
	}
	return exec.LookPath(name)
}

// testSizes are the sizes of the pipelines whose small size does not
// suit both schedules: Mullapudi2016 refuses a coarsest pyramid level
// that is empty (2^9 rows and columns for interpolate's 10 levels, 2^7
// for local_laplacian's 8); camera_pipe's manual schedule needs an
// output of at least a tile of 2 x 64 columns in strips of 32 rows (its
// tails shift inwards), harris's a strip of 32 rows.
var testSizes = map[string]map[string]int64{
	"camera_pipe":     {"R": 112, "C": 192},
	"harris":          {"R": 64, "C": 48},
	"interpolate":     {"R": 512, "C": 512},
	"local_laplacian": {"R": 128, "C": 128},
}

// TestPipelines builds each generator with both schedules at its
// pipeline's small size (or testSizes') and checks the results against
// the reference bit for bit (strict_float). The pipelines run in
// parallel (each build is one g++ and one generator run at a time);
// with -short only harris runs.
func TestPipelines(t *testing.T) {
	in := install(t)
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	for _, name := range Generators() {
		if testing.Short() && name != "harris" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			en, ok := polymage.Lookup(name)
			if !ok {
				t.Fatalf("generator %s is no PolyMage pipeline", name)
			}
			prog, err := en.Build()
			if err != nil {
				t.Fatal(err)
			}
			params := en.Small
			if p, ok := testSizes[name]; ok {
				params = p
			}
			inputs, err := en.Inputs(prog, params, 1)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := tc.Expect(prog, runner.Options{Params: params, Inputs: inputs})
			if err != nil {
				t.Fatal(err)
			}
			// The pipelines' inputs have a ring of zeros; the ports must
			// equal the reference whatever the ring holds (a port may
			// leave out a select where the ring makes it redundant only
			// if the algorithm makes it so), so the manual schedule runs
			// a second time on inputs whose ring repeats their edge.
			ringed := edgeRing(inputs, 2)
			ringExp, err := tc.Expect(prog, runner.Options{Params: params, Inputs: ringed})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []Schedule{Manual, Auto} {
				k, err := in.Kernel(context.Background(), name, prog.Name, Options{Schedule: s, Params: params, Threads: 2, StrictFloat: true})
				if err != nil {
					t.Fatalf("%s: %v", s, err)
				}
				runs := []struct {
					what   string
					inputs map[string]*scop.Buffer
					exp    *runner.Expected
				}{{"", inputs, exp}, {", inputs with a ring", ringed, ringExp}}
				if s != Manual {
					runs = runs[:1]
				}
				for _, r := range runs {
					res, err := tc.Run(prog, k, runner.Options{Params: params, Inputs: r.inputs, Expected: r.exp, Threads: 2, Repeat: 1})
					if err != nil {
						t.Fatalf("%s%s: %v", s, r.what, err)
					}
					if !res.Check.Bitwise {
						t.Errorf("%s%s: %v", s, r.what, res.Check)
					}
				}
			}
		})
	}
}

// TestCache builds a pipeline twice: the second build finds the
// generator and the library in the cache.
func TestCache(t *testing.T) {
	in := install(t)
	o := Options{Schedule: Manual, StrictFloat: true}
	k1, err := in.Kernel(context.Background(), "harris", "harris", o)
	if err != nil {
		t.Fatal(err)
	}
	entries := func() []string {
		m, _ := filepath.Glob(filepath.Join(in.Cache, "*"))
		return m
	}
	before := entries()
	k2, err := in.Kernel(context.Background(), "harris", "my_harris", o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, entries()); diff != "" {
		t.Errorf("the second build changed the cache (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(k1.Objects, k2.Objects); diff != "" {
		t.Errorf("objects differ (-first +second):\n%s", diff)
	}
	// Another function name renames the wrapper's function.
	if got, want := k2.CFlags[len(k2.CFlags)-1], "-Dharris=my_harris"; got != want || k2.Func != "my_harris" {
		t.Errorf("last flag %q, function %q; want %q and my_harris", got, k2.Func, want)
	}
}

func TestFind(t *testing.T) {
	all := func(name string) (string, error) { return "/found/" + filepath.Base(name), nil }
	none := func(string) (string, error) { return "", errors.New("not found") }
	noCXX := func(name string) (string, error) {
		if name == "g++" {
			return "", errors.New("not found")
		}
		return name, nil
	}
	tests := []struct {
		name string
		look func(string) (string, error)
		want string // the missing thing, or "" for found
	}{
		{"all", all, ""},
		{"none", none, Package},
		{"no g++", noCXX, "g++"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := Find(tt.look)
			var miss *MissingError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Find: %v", err)
			case tt.want == "" && in.CXX != "/found/g++":
				t.Errorf("CXX %q, want /found/g++", in.CXX)
			case tt.want != "" && !errors.As(err, &miss):
				t.Fatalf("Find: %v, want a *MissingError", err)
			case tt.want != "" && miss.What != tt.want:
				t.Errorf("missing %q, want %q", miss.What, tt.want)
			}
		})
	}
}

func TestGenerators(t *testing.T) {
	for _, name := range Generators() {
		for _, f := range []string{name + ".cpp", name + "_wrap.c"} {
			if _, err := source(f); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	if !Has("harris") || Has("gemm") {
		t.Errorf("Has(harris) = %v, Has(gemm) = %v", Has("harris"), Has("gemm"))
	}
}

// edgeRing returns copies of inputs in which the outermost width rows and
// columns of every plane repeat the nearest element inside them.
func edgeRing(inputs map[string]*scop.Buffer, width int64) map[string]*scop.Buffer {
	out := make(map[string]*scop.Buffer, len(inputs))
	for name, b := range inputs {
		c := b.Clone()
		out[name] = c
		if len(c.Shape) < 2 {
			continue
		}
		rows, cols := c.Shape[len(c.Shape)-2], c.Shape[len(c.Shape)-1]
		if rows <= 2*width || cols <= 2*width {
			continue
		}
		for i := range c.Len() {
			plane, r, col := i/(rows*cols), i/cols%rows, i%cols
			rr, cc := min(max(r, width), rows-1-width), min(max(col, width), cols-1-width)
			if rr != r || cc != col {
				c.Store(i, b.Load(plane*rows*cols+rr*cols+cc))
			}
		}
	}
	return out
}
