package polybench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wantKernels is the expected description of every kernel. decl is a
// fragment of the signature that pins the element type of the first array
// parameter (the benchmark's default DATA_TYPE).
var wantKernels = []struct {
	name, category, fn string
	params             []string
	decl               string
}{
	{"2mm", "linear-algebra/kernels", "kernel_2mm", []string{"ni", "nj", "nk", "nl"}, "double tmp[ 800 + 0][900 + 0]"},
	{"3mm", "linear-algebra/kernels", "kernel_3mm", []string{"ni", "nj", "nk", "nl", "nm"}, "double E[ 800 + 0][900 + 0]"},
	{"adi", "stencils", "kernel_adi", []string{"tsteps", "n"}, "double u[ 1000 + 0][1000 + 0]"},
	{"atax", "linear-algebra/kernels", "kernel_atax", []string{"m", "n"}, "double A[ 1900 + 0][2100 + 0]"},
	{"bicg", "linear-algebra/kernels", "kernel_bicg", []string{"m", "n"}, "double A[ 2100 + 0][1900 + 0]"},
	{"cholesky", "linear-algebra/solvers", "kernel_cholesky", []string{"n"}, "double A[ 2000 + 0][2000 + 0]"},
	{"correlation", "datamining", "kernel_correlation", []string{"m", "n"}, "double data[ 1400 + 0][1200 + 0]"},
	{"covariance", "datamining", "kernel_covariance", []string{"m", "n"}, "double data[ 1400 + 0][1200 + 0]"},
	{"deriche", "medley", "kernel_deriche", []string{"w", "h"}, "float imgIn[ 4096 + 0][2160 + 0]"},
	{"doitgen", "linear-algebra/kernels", "kernel_doitgen", []string{"nr", "nq", "np"}, "double A[ 150 + 0][140 + 0][160 + 0]"},
	{"durbin", "linear-algebra/solvers", "kernel_durbin", []string{"n"}, "double r[ 2000 + 0]"},
	{"fdtd-2d", "stencils", "kernel_fdtd_2d", []string{"tmax", "nx", "ny"}, "double ex[ 1000 + 0][1200 + 0]"},
	{"floyd-warshall", "medley", "kernel_floyd_warshall", []string{"n"}, "int path[ 2800 + 0][2800 + 0]"},
	{"gemm", "linear-algebra/blas", "kernel_gemm", []string{"ni", "nj", "nk"}, "double C[ 1000 + 0][1100 + 0]"},
	{"gemver", "linear-algebra/blas", "kernel_gemver", []string{"n"}, "double A[ 2000 + 0][2000 + 0]"},
	{"gesummv", "linear-algebra/blas", "kernel_gesummv", []string{"n"}, "double A[ 1300 + 0][1300 + 0]"},
	{"gramschmidt", "linear-algebra/solvers", "kernel_gramschmidt", []string{"m", "n"}, "double A[ 1000 + 0][1200 + 0]"},
	{"heat-3d", "stencils", "kernel_heat_3d", []string{"tsteps", "n"}, "double A[ 120 + 0][120 + 0][120 + 0]"},
	{"jacobi-1d", "stencils", "kernel_jacobi_1d", []string{"tsteps", "n"}, "double A[ 2000 + 0]"},
	{"jacobi-2d", "stencils", "kernel_jacobi_2d", []string{"tsteps", "n"}, "double A[ 1300 + 0][1300 + 0]"},
	{"lu", "linear-algebra/solvers", "kernel_lu", []string{"n"}, "double A[ 2000 + 0][2000 + 0]"},
	{"ludcmp", "linear-algebra/solvers", "kernel_ludcmp", []string{"n"}, "double A[ 2000 + 0][2000 + 0]"},
	{"mvt", "linear-algebra/kernels", "kernel_mvt", []string{"n"}, "double x1[ 2000 + 0]"},
	{"nussinov", "medley", "kernel_nussinov", []string{"n"}, "base seq[ 2500 + 0]"},
	{"seidel-2d", "stencils", "kernel_seidel_2d", []string{"tsteps", "n"}, "double A[ 2000 + 0][2000 + 0]"},
	{"symm", "linear-algebra/blas", "kernel_symm", []string{"m", "n"}, "double C[ 1000 + 0][1200 + 0]"},
	{"syr2k", "linear-algebra/blas", "kernel_syr2k", []string{"n", "m"}, "double C[ 1200 + 0][1200 + 0]"},
	{"syrk", "linear-algebra/blas", "kernel_syrk", []string{"n", "m"}, "double C[ 1200 + 0][1200 + 0]"},
	{"trisolv", "linear-algebra/solvers", "kernel_trisolv", []string{"n"}, "double L[ 2000 + 0][2000 + 0]"},
	{"trmm", "linear-algebra/blas", "kernel_trmm", []string{"m", "n"}, "double A[ 1000 + 0][1000 + 0]"},
}

var allDatasets = []Dataset{Mini, Small, Medium, Large, ExtraLarge}

func TestKernelList(t *testing.T) {
	ks := Kernels()
	if len(ks) != 30 {
		t.Fatalf("len(Kernels()) = %d, want 30", len(ks))
	}
	var got, want []string
	for _, k := range ks {
		got = append(got, k.Name)
	}
	for _, w := range wantKernels {
		want = append(want, w.name)
	}
	if !sort.StringsAreSorted(got) {
		t.Errorf("Kernels() not sorted by name: %v", got)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kernel names mismatch (-want +got):\n%s", diff)
	}
}

func TestKernelMetadata(t *testing.T) {
	type meta struct {
		Category, Func string
		Params         []string
	}
	for _, w := range wantKernels {
		t.Run(w.name, func(t *testing.T) {
			k, ok := Lookup(w.name)
			if !ok {
				t.Fatalf("Lookup(%q) not found", w.name)
			}
			got := meta{k.Category, k.Func, k.Params}
			want := meta{w.category, w.fn, w.params}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("metadata mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(k.Source, w.decl) {
				t.Errorf("source lacks declaration %q", w.decl)
			}
		})
	}
}

// signature returns the parameter list of fn in src: the text between the
// '(' after the function name and the matching ')'.
func signature(t *testing.T, src, fn string) string {
	t.Helper()
	i := strings.Index(src, fn+"(")
	if i < 0 {
		t.Fatalf("function %s( not found in source", fn)
	}
	rest := src[i+len(fn)+1:]
	depth := 1
	for j, c := range rest {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return rest[:j]
			}
		}
	}
	t.Fatalf("unterminated signature of %s", fn)
	return ""
}

func TestSources(t *testing.T) {
	// Remnants that must not survive preprocessing.
	forbidden := []string{
		"_PB_", "DATA_TYPE", "SCALAR_VAL", "SQRT_FUN", "EXP_FUN", "POW_FUN",
		"POLYBENCH", "max_score", "match(", "#include", "#define", "/*", "//",
	}
	for _, k := range Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			if !strings.HasPrefix(k.Func, "kernel_") {
				t.Errorf("Func %q lacks the kernel_ prefix", k.Func)
			}
			if n := strings.Count(k.Source, "void "+k.Func+"("); n != 1 {
				t.Errorf("source defines void %s( %d times, want 1", k.Func, n)
			}
			sig := signature(t, k.Source, k.Func)
			for _, p := range k.Params {
				re := regexp.MustCompile(`(^|[(,\s])int ` + regexp.QuoteMeta(p) + `\s*(,|$)`)
				if !re.MatchString(sig) {
					t.Errorf("parameter %q does not appear as \"int %s\" in signature %q", p, p, sig)
				}
			}
			for _, f := range forbidden {
				if strings.Contains(k.Source, f) {
					t.Errorf("source contains unexpanded %q", f)
				}
			}
			if strings.Count(k.Source, "#pragma scop") != 1 || strings.Count(k.Source, "#pragma endscop") != 1 {
				t.Errorf("source must hold exactly one #pragma scop / #pragma endscop pair")
			}
		})
	}
}

// nonMonotone lists the (kernel, parameter) pairs whose PolyBench 4.2.1
// EXTRALARGE value is smaller than the LARGE one.
var nonMonotone = map[[2]string]bool{
	{"atax", "m"}: true,
	{"bicg", "m"}: true,
}

func TestSizes(t *testing.T) {
	for _, k := range Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			wantKeys := append([]string(nil), k.Params...)
			sort.Strings(wantKeys)
			prev := map[string]int64{}
			for _, d := range allDatasets {
				s := k.Sizes(d)
				var keys []string
				for p, v := range s {
					keys = append(keys, p)
					if v <= 0 {
						t.Errorf("%v: %s = %d, want > 0", d, p, v)
					}
				}
				sort.Strings(keys)
				if diff := cmp.Diff(wantKeys, keys); diff != "" {
					t.Errorf("%v: size keys mismatch (-want +got):\n%s", d, diff)
				}
				for p, v := range s {
					pv, ok := prev[p]
					if !ok {
						continue
					}
					exempt := d == ExtraLarge && nonMonotone[[2]string{k.Name, p}]
					if v < pv && !exempt {
						t.Errorf("%s decreases from %d to %d at %v", p, pv, v, d)
					}
					if exempt && v >= pv {
						t.Errorf("%s: expected PolyBench's EXTRALARGE < LARGE quirk, got %d >= %d", p, v, pv)
					}
				}
				prev = s
			}
		})
	}
}

// TestLargeSizesMatchExtents checks that every non-time parameter's LARGE
// value appears as an array extent in the source, i.e. that the size table
// and the C text agree.
func TestLargeSizesMatchExtents(t *testing.T) {
	for _, k := range Kernels() {
		large := k.Sizes(Large)
		for _, p := range k.Params {
			if p == "tsteps" {
				continue // no array is dimensioned by the time steps
			}
			v := large[p]
			if !strings.Contains(k.Source, fmt.Sprintf("[ %d + 0]", v)) &&
				!strings.Contains(k.Source, fmt.Sprintf("[%d + 0]", v)) {
				t.Errorf("%s: LARGE %s = %d is not an array extent in the source", k.Name, p, v)
			}
		}
	}
}

func TestSizesValues(t *testing.T) {
	tests := []struct {
		kernel string
		d      Dataset
		want   map[string]int64
	}{
		{"gemm", Large, map[string]int64{"ni": 1000, "nj": 1100, "nk": 1200}},
		{"3mm", Mini, map[string]int64{"ni": 16, "nj": 18, "nk": 20, "nl": 22, "nm": 24}},
		{"atax", ExtraLarge, map[string]int64{"m": 1800, "n": 2200}},
		{"doitgen", Medium, map[string]int64{"nq": 40, "nr": 50, "np": 60}},
		{"deriche", Small, map[string]int64{"w": 192, "h": 128}},
		{"fdtd-2d", ExtraLarge, map[string]int64{"tmax": 1000, "nx": 2000, "ny": 2600}},
		{"heat-3d", Mini, map[string]int64{"tsteps": 20, "n": 10}},
		{"nussinov", ExtraLarge, map[string]int64{"n": 5500}},
		{"floyd-warshall", Large, map[string]int64{"n": 2800}},
	}
	for _, tt := range tests {
		t.Run(tt.kernel+"/"+tt.d.String(), func(t *testing.T) {
			k, ok := Lookup(tt.kernel)
			if !ok {
				t.Fatalf("Lookup(%q) not found", tt.kernel)
			}
			if diff := cmp.Diff(tt.want, k.Sizes(tt.d)); diff != "" {
				t.Errorf("Sizes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSizesInvalid(t *testing.T) {
	k, _ := Lookup("gemm")
	if s := k.Sizes(Dataset(-1)); s != nil {
		t.Errorf("Sizes(-1) = %v, want nil", s)
	}
	if s := k.Sizes(ExtraLarge + 1); s != nil {
		t.Errorf("Sizes(ExtraLarge+1) = %v, want nil", s)
	}
	if s := (Kernel{Name: "nope"}).Sizes(Large); s != nil {
		t.Errorf("Sizes of unknown kernel = %v, want nil", s)
	}
}

func TestDatasetStringParse(t *testing.T) {
	tests := []struct {
		in      string
		want    Dataset
		wantErr bool
	}{
		{"MINI", Mini, false},
		{"small", Small, false},
		{"Medium", Medium, false},
		{"LARGE_DATASET", Large, false},
		{"EXTRALARGE", ExtraLarge, false},
		{"extra_large", ExtraLarge, false},
		{"EXTRALARGE_DATASET", ExtraLarge, false},
		{" large ", Large, false},
		{"", 0, true},
		{"HUGE", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseDataset(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseDataset(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && got != tt.want {
			t.Errorf("ParseDataset(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}

	var names []string
	for _, d := range allDatasets {
		names = append(names, d.String())
		back, err := ParseDataset(d.String())
		if err != nil || back != d {
			t.Errorf("ParseDataset(%q) = %v, %v; want %v", d.String(), back, err, d)
		}
	}
	if diff := cmp.Diff([]string{"MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"}, names); diff != "" {
		t.Errorf("dataset names mismatch (-want +got):\n%s", diff)
	}
	if got := Dataset(7).String(); got != "Dataset(7)" {
		t.Errorf("Dataset(7).String() = %q", got)
	}
}

func TestLookup(t *testing.T) {
	if _, ok := Lookup("no-such-kernel"); ok {
		t.Errorf("Lookup of unknown kernel succeeded")
	}
	k, ok := Lookup("floyd-warshall")
	if !ok || k.Func != "kernel_floyd_warshall" {
		t.Fatalf("Lookup(floyd-warshall) = %+v, %v", k, ok)
	}
	// Results are copies: mutating them must not leak into the package.
	k.Params[0] = "mutated"
	ks := Kernels()
	ks[0].Params[0] = "mutated"
	k2, _ := Lookup("floyd-warshall")
	if diff := cmp.Diff([]string{"n"}, k2.Params); diff != "" {
		t.Errorf("Params mutated through Lookup result (-want +got):\n%s", diff)
	}
	if ks2 := Kernels(); ks2[0].Params[0] == "mutated" {
		t.Errorf("Params mutated through Kernels result")
	}
}

// TestCompileWithGCC compiles every kernel with gcc after prepending
// #include <math.h>. -Wno-unused-function is needed because the kernels are
// static and never called; -Wno-unknown-pragmas because -Wall warns about
// #pragma scop/endscop.
func TestCompileWithGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	for _, k := range Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(dir, k.Name+".c")
			obj := filepath.Join(dir, k.Name+".o")
			if err := os.WriteFile(src, []byte("#include <math.h>\n"+k.Source), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(gcc, "-c", "-O0", "-Wall", "-Werror",
				"-Wno-unused-function", "-Wno-unknown-pragmas",
				"-x", "c", src, "-o", obj)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("gcc failed: %v\n%s", err, out)
			}
		})
	}
}
