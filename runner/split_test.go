package runner

import (
	"context"
	"debug/elf"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/pipelines"
)

func TestExportedSymbols(t *testing.T) {
	for _, tt := range []struct {
		name, ir string
		want     []string
	}{
		{"plain function", "define void @f(i32 %n) nounwind {\n", []string{"f"}},
		{"internal function", "define internal void @f.omp_fn.0(i8* %ctx) {\n", nil},
		{"private constant", "@.str.0 = private unnamed_addr constant [3 x i8] c\"ab\\00\"\n", nil},
		{"internal thread-local", "@f.ws.A = internal thread_local global i8* null\n", nil},
		{"declaration", "declare void @free(i8*)\n@ext = external global i32\n", nil},
		{"exported global", "@table = global [2 x i32] zeroinitializer\n", []string{"table"}},
		{"quoted name", "define void @\"a b\"() {\n", []string{"a b"}},
		{"dso_local", "define dso_local void @g() {\n@x = dso_local global i32 0\n", []string{"g", "x"}},
		{"internal alias", "@k.ptx = internal alias i8, i8* @k.ptx.text\n", nil},
	} {
		if diff := cmp.Diff(tt.want, exportedSymbols(tt.ir)); diff != "" {
			t.Errorf("%s: exported symbols (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestSplitBuild builds a post-tiling fusion pipeline of several
// parallel-region functions in pieces: the object exports what the
// one-piece build exports (nothing of the pieces' glue), and the program
// computes the reference's values bit for bit.
func TestSplitBuild(t *testing.T) {
	tc := toolchain(t)
	if tc.Split == "" || tc.ObjCopy == "" {
		t.Skip("skipping: llvm-split or objcopy not found")
	}
	p, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Post, Parallel: true, Func: "blur"})
	if err != nil {
		t.Fatal(err)
	}
	ir := r.Module.IR
	defer func(n int) { splitMinBytes = n }(splitMinBytes)
	splitMinBytes = 0
	split := *tc
	split.Jobs = 2
	if !split.canSplit(ir) {
		t.Fatalf("the IR of %d bytes is not built in pieces", len(ir))
	}
	whole := *tc
	whole.Split = ""

	dir := t.TempDir()
	for _, b := range []struct {
		name string
		tc   *Toolchain
	}{{"whole", &whole}, {"split", &split}} {
		obj := filepath.Join(dir, b.name+".o")
		if err := b.tc.Object(ir, obj); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if diff := cmp.Diff([]string{"blur"}, globalSymbols(t, obj)); diff != "" {
			t.Errorf("%s build: global symbols defined (-want +got):\n%s", b.name, diff)
		}
		res, err := b.tc.Run(r.Program, Kernel{IR: ir, Func: "blur"}, Options{Params: map[string]int64{"R": 70, "C": 90}, Repeat: 2, Reference: RefExec, Threads: 2})
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		if !res.Check.Bitwise {
			t.Errorf("%s build: %v", b.name, res.Check)
		}
	}
}

// globalSymbols lists the global symbols the object file defines.
func globalSymbols(t *testing.T, obj string) []string {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range syms {
		if elf.ST_BIND(s.Info) == elf.STB_GLOBAL && s.Section != elf.SHN_UNDEF {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	return names
}
