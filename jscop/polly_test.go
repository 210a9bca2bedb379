package jscop_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/pollytest"
	"github.com/tilefuse/tilefuse/jscop"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

func program(t *testing.T, k polybench.Kernel) *scop.Program {
	t.Helper()
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readJSCoPs(t *testing.T, files []string) []*jscop.Scop {
	t.Helper()
	var out []*jscop.Scop
	for _, f := range files {
		out = append(out, readJSCoP(t, f))
	}
	return out
}

func readJSCoP(t *testing.T, file string) *jscop.Scop {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jscop.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// checkRun runs kernel code ir (defining k.Func) at the SMALL sizes and
// wants every array equal bit for bit to the reference executor's.
func checkRun(t *testing.T, p *scop.Program, k polybench.Kernel, ir string) {
	t.Helper()
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("no toolchain: %v", err)
	}
	res, err := tc.Run(p, runner.Kernel{IR: ir, Func: k.Func}, runner.Options{
		Params: k.Sizes(polybench.Small), Repeat: 1, Warmup: -1, Reference: runner.RefExec,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Check.OK() || !res.Check.Bitwise {
		t.Fatalf("%s: %s", k.Name, res.Check)
	}
}

// roundTrips are the kernels of the round trips, with the tile size of
// the tree tilefuse exports and the number of static control parts
// Polly makes of them.
var roundTrips = []struct {
	kernel string
	tile   int64
	parts  int
}{
	{"gemm", 8, 1}, {"jacobi-2d", 4, 1}, {"2mm", 8, 2},
}

// TestTilefuseToPolly exports a tiled tilefuse schedule of each kernel in
// Polly's names, has Polly import it and generate code on clang's IR of
// the same C, runs that code and compares its arrays with the reference
// executor's.
func TestTilefuseToPolly(t *testing.T) {
	pollytest.Need(t)
	for _, rt := range roundTrips {
		t.Run(rt.kernel, func(t *testing.T) {
			k, _ := polybench.Lookup(rt.kernel)
			dir := t.TempDir()
			ll, files := pollytest.Export(t, k, dir)
			if len(files) != rt.parts {
				t.Fatalf("Polly exported %d static control parts, want %d: %v", len(files), rt.parts, files)
			}
			p := program(t, k)
			m, err := jscop.Match(p, readJSCoPs(t, files)...)
			if err != nil {
				t.Fatal(err)
			}
			tree := tiledTree(t, p, rt.tile)
			out, err := m.Export(tree)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range out {
				data, err := s.Marshal()
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(files[i]+".tilefuse", data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			log := pollytest.Import(t, dir, ll, "tilefuse")
			if n := strings.Count(log, "Reading JScop"); n != rt.parts || strings.Contains(log, "changes the dependences") {
				t.Fatalf("Polly imported %d schedules, want %d:\n%s", n, rt.parts, log)
			}
			ir, err := os.ReadFile(filepath.Join(dir, "polly.ll"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(ir), "polly.loop_header") {
				t.Fatalf("Polly generated no loops of its own")
			}
			checkRun(t, p, k, string(ir))
		})
	}
}

// TestPollyRefusesIllegal is the round trip's control: a schedule that
// runs jacobi-2d's second statement before the first reaches Polly, which
// refuses it, as tilefuse's own check does.
func TestPollyRefusesIllegal(t *testing.T) {
	pollytest.Need(t)
	k, _ := polybench.Lookup("jacobi-2d")
	dir := t.TempDir()
	ll, files := pollytest.Export(t, k, dir)
	file := files[0]
	p := program(t, k)
	s := readJSCoP(t, file)
	// Swap the statements' positions in the time step: S1 before S0.
	for i := range s.Statements {
		st := &s.Statements[i]
		switch {
		case strings.Contains(st.Schedule, "-> [i0, 0, "):
			st.Schedule = strings.Replace(st.Schedule, "-> [i0, 0, ", "-> [i0, 1, ", 1)
		case strings.Contains(st.Schedule, "-> [i0, 1, "):
			st.Schedule = strings.Replace(st.Schedule, "-> [i0, 1, ", "-> [i0, 0, ", 1)
		default:
			t.Fatalf("unexpected schedule %s", st.Schedule)
		}
	}
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s, err = jscop.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := jscop.Match(p, s)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := m.Tree()
	if err != nil {
		t.Fatal(err)
	}
	if vs := violations(t, p, tree); len(vs) == 0 {
		t.Fatal("tilefuse accepts the swapped schedule")
	}
	if err := os.WriteFile(file+".swapped", data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Polly refuses it by aborting ("malformed jscop file").
	cmd := exec.Command(pollytest.Opt, append(pollytest.Flags, "-S", "-polly-import-jscop", "-polly-import-jscop-postfix=swapped", "-polly-codegen", ll, "-o", "polly.ll")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if log := string(out); err == nil || !strings.Contains(log, "changes the dependences") {
		t.Fatalf("Polly accepted the swapped schedule:\n%s", log)
	}
}

// TestPollyToTilefuse reads the JSCoP Polly exports for each kernel,
// checks its schedule against tilefuse's dependences, compiles the
// kernel with it and compares the arrays with the reference executor's.
func TestPollyToTilefuse(t *testing.T) {
	pollytest.Need(t)
	for _, rt := range roundTrips {
		t.Run(rt.kernel, func(t *testing.T) {
			k, _ := polybench.Lookup(rt.kernel)
			_, files := pollytest.Export(t, k, t.TempDir())
			p := program(t, k)
			m, err := jscop.Match(p, readJSCoPs(t, files)...)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := m.Tree()
			if err != nil {
				t.Fatal(err)
			}
			if vs := violations(t, p, tree); len(vs) > 0 {
				t.Fatalf("Polly's schedule breaks %v", vs[0])
			}
			r, err := compiler.Compile(context.Background(), p, compiler.Options{Tree: &tree, Func: k.Func, Parallel: true})
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, p, k, r.Module.IR)
		})
	}
}

// tiledTree is the scheduler's tree for p (min fusion) with its
// outermost permutable bands tiled by size, p's statements kept as they
// are (Polly sees the C as written).
func tiledTree(t *testing.T, p *scop.Program, size int64) scheduletree.Tree {
	t.Helper()
	r, err := compiler.Compile(context.Background(), p, compiler.Options{
		Strategy: compiler.Min, Tile: tiling.Policy{Sizes: []int64{size}}, Stop: compiler.StageFuse,
		NoInline: true, KeepScalars: true, KeepLayout: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.TiledBands) == 0 {
		t.Fatal("nothing tiled")
	}
	return r.Tree()
}

func violations(t *testing.T, p *scop.Program, tree scheduletree.Tree) []scheduler.Violation {
	t.Helper()
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := scheduler.Check(tree, g)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestExportRefusesFusedParts: a tree that fuses 2mm's two loop nests
// (Polly's two static control parts) cannot be exported, since Polly
// schedules each part alone.
func TestExportRefusesFusedParts(t *testing.T) {
	pollytest.Need(t)
	k, _ := polybench.Lookup("2mm")
	_, files := pollytest.Export(t, k, t.TempDir())
	p := program(t, k)
	m, err := jscop.Match(p, readJSCoPs(t, files)...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{
		Strategy: compiler.Max, Stop: compiler.StageFuse, NoInline: true, KeepScalars: true, KeepLayout: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Export(r.Tree())
	if err == nil || !strings.Contains(err.Error(), "schedules each static control part alone") {
		t.Fatalf("Export of the fused tree:\n%s\nerror %v, want the parts refused", r.Tree().Text(), err)
	}
}
