package emit

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// needLibclc returns llvm-link and libclc's NVPTX bitcode
// (TILEFUSE_LIBCLC, or Debian libclc-14's), or skips the test.
func needLibclc(t *testing.T) (link, lib string) {
	t.Helper()
	link = lookTool("llvm-link-14", "llvm-link")
	lib = os.Getenv("TILEFUSE_LIBCLC")
	if lib == "" {
		lib = "/usr/lib/clc/nvptx64--nvidiacl.bc"
	}
	if _, err := os.Stat(lib); err != nil || link == "" {
		t.Skipf("llvm-link (LLVM 14) or libclc's %s not found (apt-get install libclc-14)", lib)
	}
	return link, lib
}

// linkLibclc links the shim of every function LibclcShim provides with
// libclc and returns the bitcode's path.
func linkLibclc(t *testing.T) string {
	t.Helper()
	link, lib := needLibclc(t)
	shim, err := LibclcShim(LibclcNames())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "shim.ll"), filepath.Join(dir, "math.bc")
	if err := os.WriteFile(src, []byte(shim), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, link, "--only-needed", src, lib, "-o", out)
	return out
}

func TestLibclcShim(t *testing.T) {
	want := []string{}
	for _, fn := range []string{"atan", "atan2", "cos", "exp", "exp2", "log", "log2", "pow", "sin", "tan", "tanh"} {
		want = append(want, "__nv_"+fn, "__nv_"+fn+"f")
	}
	if d := cmp.Diff(sortedCopy(want), LibclcNames()); d != "" {
		t.Errorf("LibclcNames (-want +got):\n%s", d)
	}
	shim, err := LibclcShim([]string{"__nv_powf", "__nv_atan2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"define float @__nv_powf(float %x0, float %x1) {\n  %r = call float @_Z3powff(float %x0, float %x1)",
		"define double @__nv_atan2(double %x0, double %x1) {\n  %r = call double @_Z5atan2dd(double %x0, double %x1)",
	} {
		if !strings.Contains(shim, s) {
			t.Errorf("shim has no %q:\n%s", s, shim)
		}
	}
	if _, err := LibclcShim([]string{"__nv_expf", "__nv_erfcf"}); err == nil || !strings.Contains(err.Error(), "__nv_erfcf") || strings.Contains(err.Error(), "__nv_expf") {
		t.Errorf("error %v, want one naming __nv_erfcf alone", err)
	}
	ir := "declare float @__nv_expf(float)\ndeclare double @__nv_pow(double, double)\ndeclare float @__nv_expf(float)\ndefine void @k() {\n  ret void\n}\n"
	if d := cmp.Diff([]string{"__nv_expf", "__nv_pow"}, CUDAMathCalls(ir)); d != "" {
		t.Errorf("CUDAMathCalls (-want +got):\n%s", d)
	}
	ptx := ".extern .func  (.param .b32 func_retval0) __nv_expf\n(\n\t.param .b32 __nv_expf_param_0\n)\n;\n.visible .func foo()\n"
	if d := cmp.Diff([]string{"__nv_expf"}, PTXExterns(ptx)); d != "" {
		t.Errorf("PTXExterns (-want +got):\n%s", d)
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestLibclcPTX compiles every function LibclcShim provides, linked with
// libclc, to PTX: each is defined and nothing is external.
func TestLibclcPTX(t *testing.T) {
	tc := needTools(t)
	bc := linkLibclc(t)
	out := filepath.Join(t.TempDir(), "math.ptx")
	run(t, nil, tc.llc, "-O3", "-march=nvptx64", "-mcpu=sm_80", bc, "-o", out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ptx := string(data)
	if ext := PTXExterns(ptx); len(ext) > 0 {
		t.Errorf("external functions in the PTX: %v", ext)
	}
	for _, name := range LibclcNames() {
		if !regexp.MustCompile(`(?m)^\.visible \.func .*\b` + name + `\(`).MatchString(ptx) {
			t.Errorf("%s not defined in the PTX", name)
		}
	}
}

// cudaMathULPs bounds each function's distance in ulps from the host's
// libm (glibc 2.36) on TestLibclcAccuracy's inputs: the largest distance
// measured (LLVM 14, libclc 14.0.6; the inputs are fixed, so the figures
// are too). OpenCL's full profile allows libclc more (exp 3 ulp, pow 16,
// ...); emit's cuda_math.go says so.
var cudaMathULPs = map[string]int64{
	"__nv_expf": 1, "__nv_exp": 1,
	"__nv_exp2f": 1, "__nv_exp2": 1,
	"__nv_logf": 1, "__nv_log": 1,
	"__nv_log2f": 1, "__nv_log2": 0,
	"__nv_powf": 1, "__nv_pow": 1,
	"__nv_sinf": 1, "__nv_sin": 1,
	"__nv_cosf": 1, "__nv_cos": 1,
	"__nv_tanf": 2, "__nv_tan": 1,
	"__nv_tanhf": 2, "__nv_tanh": 2,
	"__nv_atanf": 1, "__nv_atan": 1,
	"__nv_atan2f": 2, "__nv_atan2": 1,
}

// TestLibclcAccuracy evaluates the functions the GPU kernels get from
// libclc on the host: the linked bitcode, retargeted to x86-64 (its
// functions use only LLVM's generic intrinsics) and compiled with FMA so
// that fmuladd fuses as llc fuses it for NVPTX, is called on 20,000
// inputs per function over its useful range and compared with glibc's
// function of the same precision, in ulps (NaN equal to NaN, infinities
// to themselves).
func TestLibclcAccuracy(t *testing.T) {
	tc := needTools(t)
	bc := linkLibclc(t)
	dir := t.TempDir()
	dis := lookTool("llvm-dis-14", "llvm-dis")
	if dis == "" {
		t.Skip("llvm-dis (LLVM 14) not found")
	}
	ll := filepath.Join(dir, "math.ll")
	run(t, nil, dis, bc, "-o", ll)
	data, err := os.ReadFile(ll)
	if err != nil {
		t.Fatal(err)
	}
	host := regexp.MustCompile(`(?m)^target (datalayout|triple) = .*$`).ReplaceAllString(string(data), "")
	if err := os.WriteFile(ll, []byte(host), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "math.o")
	run(t, nil, tc.llc, "-O2", "-mtriple=x86_64-unknown-linux-gnu", "-mattr=+fma", "-relocation-model=pic", "-filetype=obj", ll, "-o", obj)
	harness := filepath.Join(dir, "harness.c")
	if err := os.WriteFile(harness, []byte(accuracyHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "acc")
	run(t, nil, tc.gcc, "-O1", "-fno-builtin", harness, obj, "-lm", "-o", exe)
	cmd := exec.Command(exe)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			t.Fatalf("harness line %q", sc.Text())
		}
		ulps, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seen[f[0]] = true
		bound, ok := cudaMathULPs[f[0]]
		if !ok {
			t.Errorf("no bound for %s", f[0])
			continue
		}
		t.Logf("%s: %d ulps at most (at %s)", f[0], ulps, strings.Join(f[2:], " "))
		if ulps > bound {
			t.Errorf("%s is %d ulps from libm at %s (bound %d)", f[0], ulps, strings.Join(f[2:], " "), bound)
		}
	}
	for _, name := range LibclcNames() {
		if !seen[name] {
			t.Errorf("%s not measured", name)
		}
	}
}

// accuracyHarness measures each function against libm (see
// TestLibclcAccuracy): a line per function, "NAME ULPS X [Y]".
const accuracyHarness = `#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 20000
static uint64_t state = 0x9e3779b97f4a7c15u;
static double uniform(double lo, double hi) {
  state = state * 6364136223846793005u + 1442695040888963407u;
  return lo + (hi - lo) * (double)(state >> 11) / 9007199254740992.0;
}
static int64_t key64(double x) { int64_t i; memcpy(&i, &x, 8); return i < 0 ? INT64_MIN - i : i; }
static int64_t key32(float x) { int32_t i; memcpy(&i, &x, 4); return i < 0 ? (int64_t)INT32_MIN - i : i; }
static int64_t dist64(double a, double b) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INT64_MAX;
  int64_t d = key64(a) - key64(b); return d < 0 ? -d : d;
}
static int64_t dist32(float a, float b) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INT64_MAX;
  int64_t d = key32(a) - key32(b); return d < 0 ? -d : d;
}

#define F1(NV, LIBM, T, DIST, LO, HI, EXP) \
  T NV(T); \
  static void m_##NV(void) { int64_t worst = 0; double wx = 0; \
    for (int i = 0; i < N; i++) { double u = uniform(LO, HI); T x = (T)(EXP ? exp2(u) : u); \
      int64_t d = DIST(NV(x), LIBM(x)); if (d > worst) { worst = d; wx = x; } } \
    printf("%s %lld %.17g\n", #NV, (long long)worst, wx); }
#define F2(NV, LIBM, T, DIST, LO, HI, YLO, YHI, EXP) \
  T NV(T, T); \
  static void m_##NV(void) { int64_t worst = 0; double wx = 0, wy = 0; \
    for (int i = 0; i < N; i++) { double u = uniform(LO, HI); T x = (T)(EXP ? exp2(u) : u); T y = (T)uniform(YLO, YHI); \
      int64_t d = DIST(NV(x, y), LIBM(x, y)); if (d > worst) { worst = d; wx = x; wy = y; } } \
    printf("%s %lld %.17g %.17g\n", #NV, (long long)worst, wx, wy); }

F1(__nv_expf, expf, float, dist32, -87, 88, 0)
F1(__nv_exp, exp, double, dist64, -700, 700, 0)
F1(__nv_exp2f, exp2f, float, dist32, -126, 127, 0)
F1(__nv_exp2, exp2, double, dist64, -1000, 1000, 0)
F1(__nv_logf, logf, float, dist32, -120, 120, 1)
F1(__nv_log, log, double, dist64, -1000, 1000, 1)
F1(__nv_log2f, log2f, float, dist32, -120, 120, 1)
F1(__nv_log2, log2, double, dist64, -1000, 1000, 1)
F2(__nv_powf, powf, float, dist32, -8, 8, -12, 12, 1)
F2(__nv_pow, pow, double, dist64, -16, 16, -60, 60, 1)
F1(__nv_sinf, sinf, float, dist32, -10000, 10000, 0)
F1(__nv_sin, sin, double, dist64, -10000, 10000, 0)
F1(__nv_cosf, cosf, float, dist32, -10000, 10000, 0)
F1(__nv_cos, cos, double, dist64, -10000, 10000, 0)
F1(__nv_tanf, tanf, float, dist32, -10000, 10000, 0)
F1(__nv_tan, tan, double, dist64, -10000, 10000, 0)
F1(__nv_tanhf, tanhf, float, dist32, -12, 12, 0)
F1(__nv_tanh, tanh, double, dist64, -25, 25, 0)
F1(__nv_atanf, atanf, float, dist32, -1000, 1000, 0)
F1(__nv_atan, atan, double, dist64, -1000, 1000, 0)
F2(__nv_atan2f, atan2f, float, dist32, -100, 100, -100, 100, 0)
F2(__nv_atan2, atan2, double, dist64, -100, 100, -100, 100, 0)

int main(void) {
  m___nv_expf(); m___nv_exp(); m___nv_exp2f(); m___nv_exp2(); m___nv_logf(); m___nv_log();
  m___nv_log2f(); m___nv_log2(); m___nv_powf(); m___nv_pow(); m___nv_sinf(); m___nv_sin();
  m___nv_cosf(); m___nv_cos(); m___nv_tanf(); m___nv_tan(); m___nv_tanhf(); m___nv_tanh();
  m___nv_atanf(); m___nv_atan(); m___nv_atan2f(); m___nv_atan2();
  return 0;
}
`
