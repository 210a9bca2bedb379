package emit

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"tilefuse/ast"
	"tilefuse/frontend/cparse"
	"tilefuse/scheduler"
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
	tree, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	n, err := ast.Generate(tree, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
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
	opt := exec.Command(tc.opt, "-O3", "-mcpu=haswell")
	opt.Stdin = strings.NewReader(mod.IR)
	bc, err := opt.Output()
	if err != nil {
		t.Fatalf("opt: %v", err)
	}
	llc := exec.Command(tc.llc, "-O3", "-mcpu=haswell", "-o", "-")
	llc.Stdin = strings.NewReader(string(bc))
	asm, err := llc.Output()
	if err != nil {
		t.Fatalf("llc: %v", err)
	}
	conv := regexp.MustCompile(`^\s*vcvtsi2ss[lq]?\s+%\w+, (%xmm\d+), %xmm\d+`)
	zero := regexp.MustCompile(`^\s*v(?:x|px)or(?:ps|d)\s+(%xmm\d+), (%xmm\d+), (%xmm\d+)`)
	zeroed := map[string]bool{}
	convs := 0
	for _, line := range strings.Split(string(asm), "\n") {
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
