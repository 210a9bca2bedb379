package polybench

import (
	"embed"
	"sort"
)

//go:embed kernels/*.c
var kernelFS embed.FS

// Kernel is one PolyBench/C 4.2.1 kernel.
type Kernel struct {
	// Name is the PolyBench benchmark name, e.g. "2mm" or "floyd-warshall".
	Name string
	// Category is the directory of the benchmark in the PolyBench tree,
	// e.g. "linear-algebra/blas" or "stencils".
	Category string
	// Source is the preprocessed C text of the kernel function (see the
	// package documentation).
	Source string
	// Func is the name of the kernel function, e.g. "kernel_2mm".
	Func string
	// Params are the int size parameters of Func, in signature order.
	Params []string
}

// kernelInfo is the static description of a kernel; the source text is read
// from the embedded files.
type kernelInfo struct {
	name, category, fn string
	params             []string
}

var infos = []kernelInfo{
	{"correlation", "datamining", "kernel_correlation", []string{"m", "n"}},
	{"covariance", "datamining", "kernel_covariance", []string{"m", "n"}},

	{"gemm", "linear-algebra/blas", "kernel_gemm", []string{"ni", "nj", "nk"}},
	{"gemver", "linear-algebra/blas", "kernel_gemver", []string{"n"}},
	{"gesummv", "linear-algebra/blas", "kernel_gesummv", []string{"n"}},
	{"symm", "linear-algebra/blas", "kernel_symm", []string{"m", "n"}},
	{"syr2k", "linear-algebra/blas", "kernel_syr2k", []string{"n", "m"}},
	{"syrk", "linear-algebra/blas", "kernel_syrk", []string{"n", "m"}},
	{"trmm", "linear-algebra/blas", "kernel_trmm", []string{"m", "n"}},

	{"2mm", "linear-algebra/kernels", "kernel_2mm", []string{"ni", "nj", "nk", "nl"}},
	{"3mm", "linear-algebra/kernels", "kernel_3mm", []string{"ni", "nj", "nk", "nl", "nm"}},
	{"atax", "linear-algebra/kernels", "kernel_atax", []string{"m", "n"}},
	{"bicg", "linear-algebra/kernels", "kernel_bicg", []string{"m", "n"}},
	{"doitgen", "linear-algebra/kernels", "kernel_doitgen", []string{"nr", "nq", "np"}},
	{"mvt", "linear-algebra/kernels", "kernel_mvt", []string{"n"}},

	{"cholesky", "linear-algebra/solvers", "kernel_cholesky", []string{"n"}},
	{"durbin", "linear-algebra/solvers", "kernel_durbin", []string{"n"}},
	{"gramschmidt", "linear-algebra/solvers", "kernel_gramschmidt", []string{"m", "n"}},
	{"lu", "linear-algebra/solvers", "kernel_lu", []string{"n"}},
	{"ludcmp", "linear-algebra/solvers", "kernel_ludcmp", []string{"n"}},
	{"trisolv", "linear-algebra/solvers", "kernel_trisolv", []string{"n"}},

	{"deriche", "medley", "kernel_deriche", []string{"w", "h"}},
	{"floyd-warshall", "medley", "kernel_floyd_warshall", []string{"n"}},
	{"nussinov", "medley", "kernel_nussinov", []string{"n"}},

	{"adi", "stencils", "kernel_adi", []string{"tsteps", "n"}},
	{"fdtd-2d", "stencils", "kernel_fdtd_2d", []string{"tmax", "nx", "ny"}},
	{"heat-3d", "stencils", "kernel_heat_3d", []string{"tsteps", "n"}},
	{"jacobi-1d", "stencils", "kernel_jacobi_1d", []string{"tsteps", "n"}},
	{"jacobi-2d", "stencils", "kernel_jacobi_2d", []string{"tsteps", "n"}},
	{"seidel-2d", "stencils", "kernel_seidel_2d", []string{"tsteps", "n"}},
}

// kernels is built once from infos and the embedded sources, sorted by name.
var kernels = buildKernels()

func buildKernels() []Kernel {
	ks := make([]Kernel, 0, len(infos))
	for _, in := range infos {
		src, err := kernelFS.ReadFile("kernels/" + in.name + ".c")
		if err != nil {
			// The file list is fixed at build time by go:embed; a missing
			// file is a programming error in this package.
			panic("polybench: missing kernel source: " + err.Error())
		}
		ks = append(ks, Kernel{
			Name:     in.name,
			Category: in.category,
			Source:   string(src),
			Func:     in.fn,
			Params:   in.params,
		})
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks
}

// clone returns a copy of k that shares no mutable state with the package.
func (k Kernel) clone() Kernel {
	k.Params = append([]string(nil), k.Params...)
	return k
}

// Kernels returns all 30 kernels, sorted by name. The result is a fresh copy
// and may be modified by the caller.
func Kernels() []Kernel {
	out := make([]Kernel, len(kernels))
	for i, k := range kernels {
		out[i] = k.clone()
	}
	return out
}

// Lookup returns the kernel with the given PolyBench name (e.g. "2mm",
// "floyd-warshall").
func Lookup(name string) (Kernel, bool) {
	i := sort.Search(len(kernels), func(i int) bool { return kernels[i].Name >= name })
	if i < len(kernels) && kernels[i].Name == name {
		return kernels[i].clone(), true
	}
	return Kernel{}, false
}

// Every returns every n-th kernel by name, from the first (all of them
// for n <= 1): a sample that keeps every category, for quick test runs.
func Every(n int) []Kernel {
	ks := Kernels()
	if n <= 1 {
		return ks
	}
	var out []Kernel
	for i, k := range ks {
		if i%n == 0 {
			out = append(out, k)
		}
	}
	return out
}
