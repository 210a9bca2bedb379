package main

import (
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/emit"
)

// TestGPUBundleEmulate builds a bundle of the emulated mapping (which
// runs here), runs it and reads the archive: every binary's output must
// hash to the reference's, with its times read back.
func TestGPUBundleEmulate(t *testing.T) {
	needToolchain(t)
	dir, archive := filepath.Join(t.TempDir(), "bundle"), filepath.Join(t.TempDir(), "r.tar.gz")
	only := "polybench/gemm,polybench/jacobi-2d,polybench/deriche,polymage/harris"
	if stdout, stderr, status := runCmd("", "gpu", "build", "--small", "--target", "cuda-emulate", "--only", only, dir); status != exitOK || stdout != "4 binaries of 4 programs in "+dir+"\n" {
		t.Fatalf("build: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	if _, stderr, status := runCmd("", "gpu", "run", dir, archive); status != exitOK {
		t.Fatalf("run: status %d, stderr %q", status, stderr)
	}
	stdout, stderr, status := runCmd("", "gpu", "read", archive)
	if status != exitOK || !strings.Contains(stdout, "4 of 4 equal to the reference bit for bit") {
		t.Fatalf("read: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
	m, r, err := readGPUArchive(archive)
	if err != nil {
		t.Fatal(err)
	}
	if m.Target != "cuda-emulate" || len(r.Results) != 4 {
		t.Fatalf("manifest %+v, results %+v", m, r)
	}
	for _, res := range r.Results {
		if len(res.Times) != 10 || slices.Min(res.Times) <= 0 {
			t.Errorf("%s: times %v", res.Bin, res.Times)
		}
	}
}

// TestGPUBundleCuda builds CUDA binaries here: each program's PTX has
// its kernels and no external function, and the host binaries need only
// libc, libm and libdl (the driver is opened with dlopen). Run here
// without a GPU, each fails with the driver's message, and read says so
// with exit status 1; with a GPU, they must equal the reference.
func TestGPUBundleCuda(t *testing.T) {
	tc := needToolchain(t)
	if llvmLink(tc) == "" || libclc() == "" && libdevice() == "" {
		t.Skip("llvm-link (LLVM 14) or libclc's NVPTX bitcode not found (apt-get install libclc-14)")
	}
	dir, archive := filepath.Join(t.TempDir(), "bundle"), filepath.Join(t.TempDir(), "r.tar.gz")
	if _, stderr, status := runCmd("", "gpu", "build", "--small", "--only", "polybench/gemm,polybench/deriche", dir); status != exitOK {
		t.Fatalf("build: status %d, stderr %q", status, stderr)
	}
	for _, name := range []string{"gemm", "deriche"} {
		ptx := readText(t, filepath.Join(dir, "ptx", name+".ptx"))
		if !strings.Contains(ptx, ".target sm_80") || !strings.Contains(ptx, ".entry kernel_"+name+"_kernel0(") {
			t.Errorf("%s.ptx:\n%s", name, ptx)
		}
		if ext := emit.PTXExterns(ptx); len(ext) > 0 {
			t.Errorf("%s.ptx calls external functions %v", name, ext)
		}
		f, err := elf.Open(filepath.Join(dir, "bin", name+"-MINI"))
		if err != nil {
			t.Fatal(err)
		}
		libs, err := f.ImportedLibraries()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, lib := range libs {
			if !slices.Contains([]string{"libc.so.6", "libm.so.6", "libdl.so.2"}, lib) {
				t.Errorf("%s needs %s", name, lib)
			}
		}
	}
	if _, stderr, status := runCmd("", "gpu", "run", dir, archive); status != exitOK {
		t.Fatalf("run: status %d, stderr %q", status, stderr)
	}
	stdout, _, status := runCmd("", "gpu", "read", archive)
	if strings.Contains(stdout, "cannot load the CUDA driver libcuda.so.1") {
		if status != exitCheck || !strings.Contains(stdout, "0 of 2 equal") {
			t.Errorf("status %d, stdout:\n%s", status, stdout)
		}
		t.Log("no GPU: the binaries stop with the driver's message")
		return
	}
	if status != exitOK {
		t.Errorf("status %d, stdout:\n%s", status, stdout)
	}
}

// TestGPURead reads a synthetic archive: one binary equal to the
// reference, one differing (its kernels call math functions), one
// failed, one not run.
func TestGPURead(t *testing.T) {
	m := gpuManifest{Target: "cuda", Strategy: "post", Built: "2026-12-07T18:00:00Z", Entries: []gpuEntry{
		{Source: "polybench/gemm", Size: "LARGE", Bin: "bin/gemm-LARGE", Want: "aa", Reference: "naive C (cc -O2)"},
		{Source: "polybench/deriche", Size: "MINI", Bin: "bin/deriche-MINI", Want: "bb", Reference: "naive C (cc -O2)", Math: []string{"__nv_expf"}},
		{Source: "polybench/lu", Size: "MEDIUM", Bin: "bin/lu-MEDIUM", Want: "cc", Reference: "reference executor"},
		{Source: "polymage/harris", Size: "default", Bin: "bin/harris-default", Want: "dd", Reference: "naive C (cc -O2)"},
	}}
	r := gpuResults{Date: "2026-12-07T18:10:00Z", Machine: "GPU 0: NVIDIA H100", Results: []gpuResult{
		{Bin: "bin/gemm-LARGE", Status: "ok", Got: "aa", Times: []int64{250e6, 900e3, 850e3, 800e3}},
		{Bin: "bin/deriche-MINI", Status: "ok", Got: "b0", Times: []int64{200e6, 50e3}},
		{Bin: "bin/lu-MEDIUM", Status: "failed", Err: "signal: aborted: tilefuse: kernel_lu: cuLaunchKernel failed"},
		{Bin: "bin/harris-default", Status: "not run"},
	}}
	manifest, results := mustJSON(t, m), mustJSON(t, r)
	data, err := gpuArchive(map[string][]byte{"manifest.json": manifest, "results.json": results})
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "r.tar.gz")
	if err := os.WriteFile(archive, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status := runCmd("", "gpu", "read", archive)
	want := `target cuda, strategy post, built 2026-12-07T18:00:00Z; run 2026-12-07T18:10:00Z on GPU 0: NVIDIA H100
program            size     result          first call  steady    calls  reference
polybench/gemm     LARGE    equal           250.000 ms  0.850 ms  4      naive C (cc -O2)
polybench/deriche  MINI     DIFFERS (math)  200.000 ms  0.050 ms  2      naive C (cc -O2)
polybench/lu       MEDIUM   FAILED          -           -         -      reference executor
polymage/harris    default  not run         -           -         -      naive C (cc -O2)
1 of 4 equal to the reference bit for bit
first call: loads the driver, the context and the module; steady: the median of the other calls; each call copies the arrays in and out (transfers and kernels are not timed apart)
(math): the kernels call math functions, whose GPU results need not equal glibc's
failed: polybench/lu MEDIUM: signal: aborted: tilefuse: kernel_lu: cuLaunchKernel failed
`
	if d := cmp.Diff(want, stdout); d != "" || status != exitCheck || stderr != "" {
		t.Errorf("status %d, stderr %q, table (-want +got):\n%s", status, stderr, d)
	}
}

// TestGPUScripts runs scripts/gpu's build.sh (one kernel), run.sh and
// read.sh as the README says: without a GPU, read.sh prints the table
// with the binary failed and exits 1.
func TestGPUScripts(t *testing.T) {
	tc := needToolchain(t)
	if llvmLink(tc) == "" || libclc() == "" && libdevice() == "" {
		t.Skip("llvm-link (LLVM 14) or libclc's NVPTX bitcode not found (apt-get install libclc-14)")
	}
	if testing.Short() {
		t.Skip("builds tilefuse twice")
	}
	scripts, err := filepath.Abs("../../scripts/gpu")
	if err != nil {
		t.Fatal(err)
	}
	dir, out := filepath.Join(t.TempDir(), "bundle"), t.TempDir()
	script := func(name string, env []string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(filepath.Join(scripts, name), args...)
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	if msg, err := script("build.sh", nil, dir, "--small", "--only", "polybench/gemm"); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "ptx", "gemm.ptx")); err != nil {
		t.Fatal(err)
	}
	if msg, err := script("run.sh", []string{"OUT=" + out}, dir); err != nil {
		t.Fatalf("run.sh: %v\n%s", err, msg)
	}
	msg, err := script("read.sh", nil, filepath.Join(out, "tilefuse-gpu.tar.gz"))
	if !strings.Contains(msg, "polybench/gemm  MINI") {
		t.Fatalf("read.sh: %v\n%s", err, msg)
	}
	if strings.Contains(msg, "cannot load the CUDA driver") {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitCheck {
			t.Errorf("read.sh: %v, want exit status 1\n%s", err, msg)
		}
	} else if err != nil || !strings.Contains(msg, "1 of 1 equal") {
		t.Errorf("read.sh: %v\n%s", err, msg)
	}
}

// TestGPUUsage checks the gpu command's help (status 0) and usage
// errors (status 2, one line).
func TestGPUUsage(t *testing.T) {
	for _, args := range [][]string{{"help", "gpu"}, {"gpu", "-h"}, {"gpu", "build", "-h"}, {"gpu", "run", "--help"}, {"gpu", "read", "-h"}} {
		stdout, stderr, status := runCmd("", args...)
		if status != exitOK || !strings.HasPrefix(stdout, "usage: tilefuse gpu build") || !strings.Contains(stdout, "Builds here, runs there") || stderr != "" {
			t.Errorf("%v: status %d, stderr %q, stdout:\n%s", args, status, stderr, stdout)
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"gpu"}, "want build, run or read"},
		{[]string{"gpu", "launch"}, `unknown subcommand "launch"`},
		{[]string{"gpu", "build"}, "want one DIR"},
		{[]string{"gpu", "build", "--target", "cpu", dir}, "--target cpu: want cuda or cuda-emulate"},
		{[]string{"gpu", "build", "--only", "polybench/nope", dir}, `--only: "polybench/nope" is no PolyBench kernel`},
		{[]string{"gpu", "run", dir}, "want DIR and ARCHIVE"},
		{[]string{"gpu", "run", dir, filepath.Join(dir, "a.tgz")}, "manifest.json: no such file or directory"},
		{[]string{"gpu", "read", filepath.Join(dir, "none.tgz")}, "none.tgz: no such file or directory"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line with %q", status, stdout, stderr, tc.stderr)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
