package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/emit"
)

// TestCompileCuda writes the CUDA target's files: the host IR with the
// PTX embedded, the header, the kernel module and the PTX (one entry per
// kernel); -c builds the host object.
func TestCompileCuda(t *testing.T) {
	tc := needToolchain(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "gemm")
	if stdout, stderr, status := runCmd("", "compile", "--target", "cuda", "--tile", "16", "-o", out, "polybench/gemm"); status != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	host, kernel, ptx := readText(t, out+".ll"), readText(t, out+".kernel.ll"), readText(t, out+".ptx")
	if h := readText(t, out+".h"); !strings.Contains(h, "void kernel_gemm(") {
		t.Errorf("header:\n%s", h)
	}
	if !strings.Contains(kernel, `target triple = "nvptx64-nvidia-cuda"`) || !strings.Contains(kernel, "!nvvm.annotations") {
		t.Errorf("kernel module:\n%s", kernel)
	}
	if n := strings.Count(ptx, ".entry "); n != 1 || !strings.Contains(ptx, ".entry kernel_gemm_kernel0(") {
		t.Errorf("PTX with %d entries:\n%s", n, ptx)
	}
	if !strings.Contains(host, "@kernel_gemm.ptx.text = private constant") {
		t.Errorf("the host IR lacks the PTX")
	}
	if err := tc.VerifyIR(host); err != nil {
		t.Error(err)
	}
	obj := filepath.Join(dir, "gemm.o")
	if _, stderr, status := runCmd("", "compile", "--target", "cuda", "-c", "-o", obj, "polybench/gemm"); status != exitOK {
		t.Fatalf("compile -c: status %d: %s", status, stderr)
	}
	if b := readText(t, obj); len(b) < 4 || b[1:4] != "ELF" {
		t.Errorf("%s is no ELF object", obj)
	}
}

// TestDropInCuda links testdata/dropin/main.c with the objects of
// 'tilefuse compile -c --target cuda-emulate' (which must print what the
// C kernel prints) and --target cuda (which must link; without a GPU it
// stops with the driver's message).
func TestDropInCuda(t *testing.T) {
	tc := needToolchain(t)
	dir := t.TempDir()
	build := func(bin string, inputs ...string) (string, string, error) {
		t.Helper()
		args := append([]string{"-O2", "-ffp-contract=off", "-o", bin}, inputs...)
		if out, err := exec.Command(tc.CC, append(args, "-fopenmp", "-lm", "-ldl")...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tc.CC, err, out)
		}
		cmd := exec.Command(bin)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		return string(out), stderr.String(), err
	}
	want, _, err := build(filepath.Join(dir, "ref"), "testdata/dropin/main.c", "testdata/dropin/kernel.c")
	if err != nil {
		t.Fatal(err)
	}
	for i, flags := range [][]string{
		{"--target", "cuda-emulate", "--fuse", "none"},
		{"--target", "cuda-emulate", "--tile", "8,16", "--thread-sizes", "4,4"},
		{"--target", "cuda-emulate", "--fuse", "max", "--tile", "4", "--thread-sizes", "2,3", "--block-sizes", "2,2"},
		{"--target", "cuda", "--tile", "8,16"},
	} {
		obj := filepath.Join(dir, "smooth.o")
		args := append(append([]string{"compile", "-c", "-o", obj}, flags...), "testdata/dropin/kernel.c")
		if _, stderr, status := runCmd("", args...); status != exitOK {
			t.Fatalf("%v: status %d: %s", flags, status, stderr)
		}
		got, stderr, err := build(filepath.Join(dir, "dropin"+string(rune('0'+i))), "testdata/dropin/main.c", obj)
		switch {
		case err == nil && got != want:
			t.Errorf("%v: the program prints differently with tilefuse's smooth", flags)
		case err != nil && flags[1] == "cuda" && strings.Contains(stderr, "tilefuse: smooth: cannot load the CUDA driver libcuda.so.1"):
			t.Logf("no GPU: %s", strings.TrimSpace(stderr))
		case err != nil:
			t.Errorf("%v: %v\n%s", flags, err, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "smooth.o")); err != nil {
		t.Fatal(err)
	}
}

// TestRunCudaEmulate runs schedules on the emulated GPU.
func TestRunCudaEmulate(t *testing.T) {
	needToolchain(t)
	for _, args := range [][]string{
		{"polybench/jacobi-2d", "--tile", "8", "--thread-sizes", "4,4"},
		{"polybench/2mm", "--fuse", "max", "--thread-sizes", "4,2", "--repeat", "2"},
		{"pipelines/blur", "--size", "R=64,C=48", "--tile", "16", "--thread-sizes", "8,4", "--ref", "exec"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, status := runCmd("", append([]string{"run", "--target", "cuda-emulate"}, args...)...)
			if status != exitOK || !strings.Contains(stdout, "check ok: equal bit for bit") || !strings.Contains(stdout, "target cuda-emulate") {
				t.Errorf("status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
			}
		})
	}
}

func TestGPUFlagErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "k")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"bad thread size", []string{"compile", "--target", "cuda", "--thread-sizes", "4,x", "-o", out, "polybench/gemm"}, `--thread-sizes 4,x: "x" is not a positive size`},
		{"four sizes", []string{"compile", "--target", "cuda", "--block-sizes", "1,2,3,4", "-o", out, "polybench/gemm"}, "at most 3 sizes"},
		{"cpu target", []string{"run", "--thread-sizes", "4", "polybench/gemm"}, "--thread-sizes applies to --target cuda and cuda-emulate"},
		{"big blocks", []string{"compile", "--target", "cuda", "--thread-sizes", "64,32", "-o", out, "polybench/gemm"}, "blocks of 2048 threads; CUDA allows 1024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line with %q", status, stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestCompileCudaLibdevice compiles deriche (expf and powf: libdevice's
// __nv_expf and __nv_powf) with a stand-in libdevice.10.bc found through
// CUDA_HOME: the PTX must define the functions instead of declaring them
// external. Without libdevice, compile warns.
func TestCompileCudaLibdevice(t *testing.T) {
	tc := needToolchain(t)
	link := llvmLink(tc)
	if link == "" {
		t.Skip("llvm-link (LLVM 14) not found")
	}
	home := t.TempDir()
	libDir := filepath.Join(home, "nvvm", "libdevice")
	if err := os.MkdirAll(libDir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(home, "fake.ll")
	fake := `target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define float @__nv_expf(float %x) { ret float %x }
define float @__nv_powf(float %x, float %y) { %r = fmul float %x, %y
  ret float %r }
define double @__nv_sin(double %x) { ret double %x }
`
	if err := os.WriteFile(src, []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	asm := filepath.Join(filepath.Dir(link), "llvm-as")
	if _, err := exec.LookPath(asm); err != nil {
		asm = "llvm-as-14"
	}
	if out, err := exec.Command(asm, src, "-o", filepath.Join(libDir, "libdevice.10.bc")).CombinedOutput(); err != nil {
		t.Skipf("llvm-as: %v\n%s", err, out)
	}
	out := filepath.Join(t.TempDir(), "deriche")
	t.Setenv("CUDA_HOME", home)
	if _, stderr, status := runCmd("", "compile", "--target", "cuda", "-o", out, "polybench/deriche"); status != exitOK || stderr != "" {
		t.Fatalf("status %d: %s", status, stderr)
	}
	ptx := readText(t, out+".ptx")
	if strings.Contains(ptx, ".extern .func") || !strings.Contains(ptx, "__nv_expf") {
		t.Errorf("libdevice not linked in:\n%s", ptx)
	}
	t.Setenv("CUDA_HOME", t.TempDir())
	if libdevice() == "" {
		// Neither libdevice nor libclc: exit 2 naming the functions, and
		// nothing written.
		t.Setenv("TILEFUSE_LIBCLC", filepath.Join(t.TempDir(), "none.bc"))
		out := filepath.Join(t.TempDir(), "deriche")
		_, stderr, status := runCmd("", "compile", "--target", "cuda", "-o", out, "polybench/deriche")
		if status != exitUsage || !strings.Contains(stderr, "__nv_expf, __nv_powf") || !strings.Contains(stderr, "libclc-14") {
			t.Errorf("status %d, stderr %q", status, stderr)
		}
		if _, err := os.Stat(out + ".ll"); err == nil {
			t.Errorf("%s.ll written", out)
		}
	}
}

// mathKernel calls every math function the front end accepts, in double
// and float.
const mathKernel = `void mathall(int n, double A[n], double B[n], float C[n], float D[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    B[i] = exp(A[i]) + log(A[i]) + pow(A[i], 0.5) + sin(A[i]) + cos(A[i]) + tan(A[i]) + tanh(A[i])
      + atan(A[i]) + atan2(A[i], 2.0) + exp2(A[i]) + log2(A[i]) + sqrt(A[i]) + fabs(A[i]) + floor(A[i])
      + ceil(A[i]) + round(A[i]);
    D[i] = expf(C[i]) + logf(C[i]) + powf(C[i], 0.5f) + sinf(C[i]) + cosf(C[i]) + tanf(C[i]) + tanhf(C[i])
      + atanf(C[i]) + atan2f(C[i], 2.0f) + exp2f(C[i]) + log2f(C[i]) + sqrtf(C[i]) + fabsf(C[i]) + floorf(C[i])
      + ceilf(C[i]) + roundf(C[i]);
  }
#pragma endscop
}
`

// TestCompileCudaMath compiles a kernel calling every math function for
// the GPU without a CUDA toolkit (libclc's bitcode): the PTX defines
// every libdevice function the kernel calls and declares nothing
// external.
func TestCompileCudaMath(t *testing.T) {
	tc := needToolchain(t)
	if llvmLink(tc) == "" || libclc() == "" {
		t.Skip("llvm-link (LLVM 14) or libclc's NVPTX bitcode not found (apt-get install libclc-14)")
	}
	t.Setenv("CUDA_HOME", t.TempDir())
	if libdevice() != "" {
		t.Skip("a libdevice.10.bc is installed: it would be linked instead of libclc")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "mathall.c")
	if err := os.WriteFile(src, []byte(mathKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "mathall")
	if _, stderr, status := runCmd("", "compile", "--target", "cuda", "-o", out, src); status != exitOK || stderr != "" {
		t.Fatalf("status %d: %s", status, stderr)
	}
	kernel := readText(t, out+".kernel.ll")
	calls := emit.CUDAMathCalls(kernel)
	if d := cmp.Diff(emit.LibclcNames(), calls); d != "" {
		t.Errorf("the kernel's libdevice calls (-every function +called):\n%s", d)
	}
	ptx := readText(t, out+".ptx")
	if ext := emit.PTXExterns(ptx); len(ext) > 0 {
		t.Errorf("external functions in the PTX: %v", ext)
	}
	for _, name := range calls {
		if !strings.Contains(ptx, ".func  (.param .b64 func_retval0) "+name+"(") && !strings.Contains(ptx, ".func  (.param .b32 func_retval0) "+name+"(") {
			t.Errorf("%s not defined in the PTX", name)
		}
	}
}
