package emit

import (
	"os"

	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/polybench"
)

// ptx compiles a kernel module to PTX with llc for sm_80.
func ptx(t *testing.T, llc, kernelIR string) string {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.ll"), filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(in, []byte(kernelIR), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, llc, "-O3", "-march=nvptx64", "-mcpu=sm_80", in, "-o", out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkCUDA checks a CUDA module: llc makes PTX with one entry per
// kernel, and the host module with the PTX embedded passes opt -verify.
// It returns the host IR with the PTX.
func checkCUDA(t *testing.T, tc toolchain, mod *Module) string {
	t.Helper()
	if !strings.Contains(mod.KernelIR, `target triple = "nvptx64-nvidia-cuda"`) ||
		!strings.Contains(mod.KernelIR, `target datalayout = "`+NVPTXDataLayout+`"`) {
		t.Fatalf("kernel module without the NVPTX target:\n%s", mod.KernelIR)
	}
	text := ptx(t, tc.llc, mod.KernelIR)
	if got := strings.Count(text, ".entry "); got != len(mod.Kernels) {
		t.Errorf("PTX has %d entries for %d kernels", got, len(mod.Kernels))
	}
	for _, k := range mod.Kernels {
		if !strings.Contains(text, ".entry "+k+"(") {
			t.Errorf("PTX lacks entry %s", k)
		}
	}
	host, err := mod.EmbedPTX(text)
	if err != nil {
		t.Fatal(err)
	}
	verify(t, tc.opt, host)
	return host
}

// TestCudaPolyBench emits every PolyBench kernel under every fusion
// heuristic for the CUDA target with the default sizes and checks both
// modules (llc for NVPTX, opt -verify for the host).
func TestCudaPolyBench(t *testing.T) {
	tc := needTools(t)
	for _, k := range polybench.Kernels() {
		for _, fuse := range gpuFuses {
			t.Run(k.Name+"/"+fuse, func(t *testing.T) {
				t.Parallel()
				p, tree := scheduleKernel(t, k, fuse)
				opts := Options{Target: CUDA}
				mod, err := Emit(p, gpuAST(t, tree, opts), opts)
				if err != nil {
					t.Fatal(err)
				}
				checkCUDA(t, tc, mod)
			})
		}
	}
}
