package emit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// This file holds the tests' use of the LLVM 14 tools and gcc: verify a
// module, build it into an executable with the scop/charness harness,
// run it.

type toolchain struct{ opt, llc, gcc string }

// lookTool finds the first of names on the PATH.
func lookTool(names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// needOpt returns opt, or skips the test.
func needOpt(t *testing.T) string {
	t.Helper()
	opt := lookTool("opt-14", "opt")
	if opt == "" {
		t.Skip("opt (LLVM 14) not found: cannot verify the emitted IR")
	}
	return opt
}

// needTools returns opt, llc and gcc, or skips the test.
func needTools(t *testing.T) toolchain {
	t.Helper()
	tc := toolchain{opt: needOpt(t), llc: lookTool("llc-14", "llc"), gcc: lookTool("gcc")}
	if tc.llc == "" || tc.gcc == "" {
		t.Skip("llc (LLVM 14) or gcc not found: cannot build the emitted IR")
	}
	return tc
}

func run(t *testing.T, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.String())
	}
	return append(out, stderr.Bytes()...)
}

// verify runs opt -verify on the module.
func verify(t *testing.T, opt, ir string) {
	t.Helper()
	cmd := exec.Command(opt, "-verify", "-disable-output")
	cmd.Stdin = strings.NewReader(ir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opt -verify: %v\n%s", err, out)
	}
}

// emitVerified emits n for p with opts and checks the IR with opt
// -verify.
func (tc toolchain) emitVerified(t *testing.T, p *scop.Program, n ast.Node, opts Options) *Module {
	t.Helper()
	mod, err := Emit(p, n, opts)
	if err != nil {
		t.Fatal(err)
	}
	verify(t, tc.opt, mod.IR)
	return mod
}

// build compiles the module with opt -O3 and llc -O3, links it with the
// harness of p at params (which includes the module's header) and
// returns the executable.
func (tc toolchain) build(t *testing.T, dir string, mod *Module, p *scop.Program, params map[string]int64) string {
	t.Helper()
	ll, bc, obj := filepath.Join(dir, "k.ll"), filepath.Join(dir, "k.bc"), filepath.Join(dir, "k.o")
	mainC, bin := filepath.Join(dir, "main.c"), filepath.Join(dir, "k")
	if err := os.WriteFile(ll, []byte(mod.IR), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, tc.opt, "-O3", ll, "-o", bc)
	run(t, nil, tc.llc, "-O3", "-relocation-model=pic", "-filetype=obj", bc, "-o", obj)
	src, err := charness.Main(p, params, mod.Func, mod.Header)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mainC, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, nil, tc.gcc, "-O0", "-Wall", "-Werror", "-o", bin, mainC, obj, "-lgomp", "-lm")
	return bin
}

// writeInput writes the harness's input file for the buffers, once for
// all the runs of a test (PolyBench's arrays make tens of MiB).
func writeInput(t *testing.T, p *scop.Program, in map[string]*scop.Buffer) string {
	t.Helper()
	input, err := charness.Encode(p, in)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "in.bin")
	if err := os.WriteFile(file, input, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runHarness runs the executable on the input file with the given number
// of OpenMP threads and returns the arrays it wrote, shaped like in.
func runHarness(t *testing.T, bin, inFile string, p *scop.Program, in map[string]*scop.Buffer, threads int) map[string]*scop.Buffer {
	t.Helper()
	outFile := filepath.Join(t.TempDir(), "out.bin")
	// Passive waiting: spinning threads slow a loaded test machine down.
	run(t, []string{"OMP_NUM_THREADS=" + strconv.Itoa(threads), "OMP_WAIT_POLICY=passive"}, bin, inFile, outFile)
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(outFile)
	got, err := charness.Decode(p, in, data)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// cloneBufs copies every buffer.
func cloneBufs(bufs map[string]*scop.Buffer) map[string]*scop.Buffer {
	out := map[string]*scop.Buffer{}
	for k, b := range bufs {
		out[k] = b.Clone()
	}
	return out
}

// compareArgs reports the array arguments of p (those in only, when
// given) that differ between got and want.
func compareArgs(t *testing.T, p *scop.Program, got, want map[string]*scop.Buffer, tol float64, only ...string) {
	t.Helper()
	for _, a := range charness.ArrayArgs(p) {
		if len(only) > 0 && !contains(only, a.Name) {
			continue
		}
		m, err := scop.Compare(got[a.Name], want[a.Name], tol)
		if err != nil {
			t.Fatal(err)
		}
		if m != nil {
			t.Errorf("array %s differs from the reference at %s", a.Name, m)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
