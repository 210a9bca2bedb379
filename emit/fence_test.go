package emit

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// sinLoopSrc converts an integer to float for every libm call, as the
// tutorial's producer does.
const sinLoopSrc = `void sines(int n, float out[n]) {
  for (int i = 0; i < n; i++)
    out[i] = sinf((float)(i * i)) + cosf((float)(3 * i));
}`

// TestFenceAfterLibmCall: on x86-64, every int-to-float conversion in a
// loop that calls libm must merge into a register zeroed after the last
// call (vxorps), not into one the callee wrote, which would chain every
// conversion to the previous call's latency. The module is built for an
// AVX2 machine (no xmm16-31 to hide in), through opt -O3 and llc -O3.
func TestFenceAfterLibmCall(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("sines.c", []byte(sinLoopSrc), "sines")
	if err != nil {
		t.Fatal(err)
	}
	n := originalAST(t, p)
	for _, tgt := range []struct {
		target Target
		fenced bool
	}{{CPU, true}, {CUDA, false}} {
		mod, err := Emit(p, n, Options{Target: tgt.target})
		if err != nil {
			t.Fatal(err)
		}
		ir := mod.IR
		if tgt.target == CUDA {
			ir = mod.KernelIR
		}
		if got := strings.Contains(ir, `asm "", "=x,0,~{xmm1}`); got != tgt.fenced {
			t.Errorf("%v: fence in IR %v, want %v", tgt.target, got, tgt.fenced)
		}
	}
	mod, err := Emit(p, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	asm := haswellAsm(t, tc, mod.IR)
	conv := regexp.MustCompile(`^\s*vcvtsi2ss[lq]?\s+%\w+, (%xmm\d+), %xmm\d+`)
	zero := regexp.MustCompile(`^\s*v(?:x|px)or(?:ps|d)\s+(%xmm\d+), (%xmm\d+), (%xmm\d+)`)
	zeroed := map[string]bool{}
	convs := 0
	for _, line := range strings.Split(asm, "\n") {
		switch {
		case strings.Contains(line, "call"):
			zeroed = map[string]bool{}
		case zero.MatchString(line):
			m := zero.FindStringSubmatch(line)
			if m[1] == m[2] && m[2] == m[3] {
				zeroed[m[3]] = true
			}
		case conv.MatchString(line):
			convs++
			if r := conv.FindStringSubmatch(line)[1]; !zeroed[r] {
				t.Errorf("conversion merges into %s, not zeroed since the last call: %s", r, strings.TrimSpace(line))
			}
		}
	}
	if convs < 2 {
		t.Fatalf("%d int-to-float conversions in the assembly, want 2 or more:\n%s", convs, asm)
	}
}

// rowSinesSrc runs a sinf loop and a vectorizable loop in the same row
// loop, as a post-tiling fusion tile runs a producer and its consumer.
const rowSinesSrc = `void rowsines(int n, float A[n][n], float B[n][n]) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      A[i][j] = sinf((float)(i * j));
    for (int j = 0; j < n; j++)
      B[i][j] = A[i][j] * 2.0f + 1.0f;
  }
}`

// TestLibmNestOutlined: a nest calling libm inside a loop is a function
// of its own on x86-64, so that llc puts no vzeroupper in the loop around
// the call (the vector loop beside it leaves the upper halves dirty, and
// llc's pass would put one before the call on every iteration: 10% of
// producer_consumer's time on AMD Zen). The other nest stays in place
// (the function is small), and the program computes the reference's
// arrays (to libm's last bit), serially and on threads.
func TestLibmNestOutlined(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("rowsines.c", []byte(rowSinesSrc), "rowsines")
	if err != nil {
		t.Fatal(err)
	}
	n := originalAST(t, p)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			if k := strings.Count(mod.IR, "define internal void @rowsines.nest."); k != 1 {
				t.Errorf("%d nests outlined, want 1 (the sinf loop)", k)
			}
			// glibc's sinf and the reference's sin may differ in the last bit.
			runCheckedTol(t, tc, p, mod, map[string]int64{"n": 37}, 1e-6)
		})
	}
	mod, err := Emit(p, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	asm := haswellAsm(t, tc, mod.IR)
	// The function that calls sinf has no vzeroupper at all.
	for _, fn := range strings.Split(asm, "\t.type\t") {
		if strings.Contains(fn, "sinf") && strings.Contains(fn, "vzeroupper") {
			t.Errorf("a function calling sinf runs vzeroupper:\n%s", fn)
		}
	}
	if !strings.Contains(asm, "%ymm") {
		t.Errorf("the second loop did not vectorize (no ymm register), so the test shows nothing:\n%s", asm)
	}
	// Elsewhere (a CUDA kernel, or a GPU's emulation) nothing is outlined.
	for _, tgt := range []Target{CUDA, CUDAEmulate} {
		mod, err := Emit(p, n, Options{Target: tgt})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(mod.IR+mod.KernelIR, ".nest.") {
			t.Errorf("%v: a nest was outlined", tgt)
		}
	}
}

// haswellAsm builds ir for an AVX2 machine through opt -O3 and llc -O3
// and returns the assembly.
func haswellAsm(t *testing.T, tc toolchain, ir string) string {
	t.Helper()
	opt := exec.Command(tc.opt, "-O3", "-mcpu=haswell")
	opt.Stdin = strings.NewReader(ir)
	bc, err := opt.Output()
	if err != nil {
		t.Fatalf("opt: %v", err)
	}
	llc := exec.Command(tc.llc, "-O3", "-mcpu=haswell", "-o", "-")
	llc.Stdin = bytes.NewReader(bc)
	asm, err := llc.Output()
	if err != nil {
		t.Fatalf("llc: %v", err)
	}
	return string(asm)
}
