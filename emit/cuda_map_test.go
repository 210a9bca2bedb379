package emit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// runChecked builds a module (a CPU one, or a GPU one for emulation),
// runs it on the reference's inputs with 2 threads and compares every
// array with the reference executor's result (except the arrays in
// skip, which keep their inputs).
func runChecked(t *testing.T, tc toolchain, p *scop.Program, mod *Module, params map[string]int64, skip ...string) {
	t.Helper()
	runCheckedTol(t, tc, p, mod, params, 0, skip...)
}

// runCheckedTol is runChecked with compareArgs' tolerance tol (libm's
// results may differ from the reference's in the last bit).
func runCheckedTol(t *testing.T, tc toolchain, p *scop.Program, mod *Module, params map[string]int64, tol float64, skip ...string) {
	t.Helper()
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	for _, a := range skip {
		want[a] = in[a]
	}
	bin := tc.build(t, t.TempDir(), mod, p, params)
	got := runHarness(t, bin, writeInput(t, p, in), p, in, 2)
	compareArgs(t, p, got, want, tol)
}

// rowsGPU is rowsSrc's program as a kernel: a block per row c0, the
// row's buffers T (n elements, shape given) and s shared by its threads,
// s set by thread 0, T filled by the threads, then read back reversed
// (T[n - 1 - j]: values other threads wrote, after a barrier).
func rowsGPU(shape ast.Expr) ast.Node {
	c0, c1, n := ast.Var("c0"), ast.Var("c1"), ast.Var("n")
	row := func(stmt string) ast.Node {
		return &ast.Mark{Name: scheduletree.MarkThread, Body: &ast.For{Iter: "c1", Lower: ast.Int(0), Upper: ast.Sub(n, ast.Int(1)), Stride: 1,
			Body: &ast.User{Stmt: stmt, Args: []ast.Expr{c0, c1}}}}
	}
	return &ast.Mark{Name: scheduletree.MarkKernel, Body: &ast.For{Iter: "c0", Lower: ast.Int(0), Upper: ast.Sub(n, ast.Int(1)), Stride: 1,
		Body: &ast.Block{Children: []ast.Node{
			&ast.Alloc{Array: "T", Elem: scop.F64, Shape: []ast.Expr{shape}},
			&ast.Alloc{Array: "s", Elem: scop.F64},
			&ast.User{Stmt: "S0", Args: []ast.Expr{c0}},
			row("S1"),
			row("S2"),
			&ast.Free{Array: "s"},
			&ast.Free{Array: "T"},
		}}}}
}

// TestCudaSharedMemory runs rowsGPU with T of a constant size (a static
// shared array) and of size n (allocated by thread 0, its pointer in a
// shared cell), emulated with blocks of 4 and 3 threads (n = 20: each
// thread takes several columns), and checks the CUDA kernel's shared
// arrays and barriers in the IR and the PTX.
func TestCudaSharedMemory(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("rows.c", []byte(rowsSrc), "rows")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 20}
	for _, c := range []struct {
		name  string
		shape ast.Expr
	}{{"static", ast.Int(32)}, {"dynamic", ast.Var("n")}} {
		t.Run(c.name, func(t *testing.T) {
			n := rowsGPU(c.shape)
			for _, ts := range []int64{4, 3} {
				opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{ts}, Func: "rows_emu"}
				mod := tc.emitVerified(t, p, n, opts)
				checkIR(t, mod.IR, "call void @GOMP_parallel(", "call void @GOMP_barrier()")
				runChecked(t, tc, p, mod, params, "T")
			}
			mod, err := Emit(p, n, Options{Target: CUDA})
			if err != nil {
				t.Fatal(err)
			}
			if len(mod.Kernels) != 1 {
				t.Fatalf("%d kernels, want 1", len(mod.Kernels))
			}
			switch c.name {
			case "static":
				checkIR(t, mod.KernelIR,
					"@rows_kernel0_shared_T_1 = internal addrspace(3) global [32 x double] undef, align 16",
					"@rows_kernel0_shared_s_2 = internal addrspace(3) global [1 x double] undef, align 16",
					"define void @rows_kernel0(",
					"call void @llvm.nvvm.barrier0()",
					"NOT @malloc")
			case "dynamic":
				checkIR(t, mod.KernelIR,
					"addrspace(3) global [1 x i8*] undef",
					"define void @rows_kernel0(",
					"call i8* @malloc(",
					"call void @llvm.nvvm.barrier0()",
					"call void @free(")
			}
			text := ptx(t, tc.llc, mod.KernelIR)
			for _, want := range []string{".visible .entry rows_kernel0(", ".shared .align 16", "bar.sync"} {
				if !strings.Contains(text, want) {
					t.Errorf("PTX lacks %q", want)
				}
			}
			checkCUDA(t, tc, mod)
		})
	}
}

// TestCudaDefaultParallel maps marksAST's parallel loop (stride 3,
// negative bounds, an If in its body) without marks: its iterations are
// spread over all threads of all blocks.
func TestCudaDefaultParallel(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("marks.c", []byte(marksSrc), "marks")
	if err != nil {
		t.Fatal(err)
	}
	n := marksAST()
	params := map[string]int64{}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	// As TestLoopsAndExpressions: the instances the interpreter visits.
	want := cloneBufs(in)
	err = ast.Run(n, params, ast.Visitor{User: func(stmt string, args []int64) error {
		b := want["B"+stmt[1:]]
		off, ok := b.Offset(args[:2])
		if !ok {
			return fmt.Errorf("%s%v out of bounds", stmt, args)
		}
		b.Store(off, scop.IntValue(scop.I32, args[2]))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	inFile := writeInput(t, p, in)
	for _, ts := range []int64{1, 2, 4} {
		for _, bs := range []int64{1, 3, 65535} {
			t.Run(fmt.Sprintf("threads%d/blocks%d", ts, bs), func(t *testing.T) {
				opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{ts}, BlockSizes: []int64{bs}}
				mod := tc.emitVerified(t, p, n, opts)
				bin := tc.build(t, t.TempDir(), mod, p, params)
				compareArgs(t, p, runHarness(t, bin, inFile, p, in, 1), want, 0)
			})
		}
	}
	mod, err := Emit(p, n, Options{Target: CUDA})
	if err != nil {
		t.Fatal(err)
	}
	checkCUDA(t, tc, mod)
}

// bandPath returns the path of the first band of t.
func bandPath(t *testing.T, tree scheduletree.Tree) scheduletree.Path {
	t.Helper()
	var at scheduletree.Path
	tree.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if at == nil && n.Kind() == scheduletree.KindBand {
			at = append(scheduletree.Path{}, p...)
		}
		return at == nil
	})
	if at == nil {
		t.Fatal("no band")
	}
	return at
}

// mustEdit returns a function that returns the tree of an edit, or
// fails.
func mustEdit(t *testing.T) func(scheduletree.Tree, error) scheduletree.Tree {
	return func(tree scheduletree.Tree, err error) scheduletree.Tree {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return tree
	}
}

// TestCudaMarksTiledGemm tiles gemm's band (i, j, k) by 4 and maps it by
// hand with scheduletree edits: the tile members i0, j0 to blocks, k0
// serial in each block, the point members i, j to threads, k serial in
// each thread. gpumap.Map must find the same marks; the code, emulated with
// blocks of 2 x 3 threads (fewer than a tile's points), must compute
// gemm.
func TestCudaMarksTiledGemm(t *testing.T) {
	tc := needTools(t)
	k, _ := polybench.Lookup("gemm")
	p := parseKernel(t, k)
	// The band in the hyperplanes' order, i, j, k (by default k is
	// moved before j, for locality).
	tree := scheduleWith(t, p, scheduler.Options{Fuse: scheduler.FuseSmart, KeepOrder: true})
	must := mustEdit(t)
	b := bandPath(t, tree)
	tree = must(tree.TileBand(b, []int64{4, 4, 4}))
	tile := must(tree.SplitBand(b, 2))                  // b: (i0, j0), b/0: (k0), b/0/0: (i, j, k)
	tile = must(tile.SplitBand(b.Child(0).Child(0), 2)) // b/0/0: (i, j), b/0/0/0: (k)
	byHand := must(tile.InsertMark(b.Child(0).Child(0).Child(0), scheduletree.MarkSerial))
	byHand = must(byHand.InsertMark(b.Child(0).Child(0), scheduletree.MarkThread))
	byHand = must(byHand.InsertMark(b.Child(0), scheduletree.MarkSerial))
	byHand = must(byHand.InsertMark(b, scheduletree.MarkKernel))

	opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{2, 3}}
	auto, err := gpumap.Map(tree, gpumap.Sizes{Threads: opts.ThreadSizes, Blocks: opts.BlockSizes})
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := auto.Equal(byHand); err != nil || !eq {
		t.Errorf("gpumap.Map differs from the marks by hand:\n%s\nwant\n%s", auto.Text(), byHand.Text())
	}
	n, err := ast.Generate(byHand, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := ast.PrintC(n, ast.PrintOptions{})
	for _, want := range []string{"// kernel", "// serial", "// thread", "// serial"} {
		if !strings.Contains(c, want) {
			t.Fatalf("AST lacks %q:\n%s", want, c)
		}
	}
	mod := tc.emitVerified(t, p, n, opts)
	runChecked(t, tc, p, mod, k.Sizes(polybench.Mini))

	mod, err = Emit(p, n, Options{Target: CUDA})
	if err != nil {
		t.Fatal(err)
	}
	// Blocks over (i0, j0) on (y, x), threads over (i, j) on (y, x).
	checkIR(t, mod.KernelIR, "define void @kernel_gemm_kernel0(",
		"@llvm.nvvm.read.ptx.sreg.tid.x()", "@llvm.nvvm.read.ptx.sreg.ctaid.x()")
	checkCUDA(t, tc, mod)
}

// TestCudaMarksJacobi2D maps jacobi-2d (time loop on the host, two
// stencil nests tiled by 4, gpumap.Map's marks) and runs it emulated.
func TestCudaMarksJacobi2D(t *testing.T) {
	tc := needTools(t)
	k, _ := polybench.Lookup("jacobi-2d")
	p, tree := scheduleKernel(t, k, "none")
	var paths []scheduletree.Path
	tree.Walk(func(at scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && n.Band().Members() == 2 {
			paths = append(paths, append(scheduletree.Path{}, at...))
		}
		return true
	})
	if len(paths) != 2 {
		t.Fatalf("%d two-member bands, want 2:\n%s", len(paths), tree.Text())
	}
	must := mustEdit(t)
	for i := len(paths) - 1; i >= 0; i-- {
		tree = must(tree.TileBand(paths[i], []int64{4, 4}))
	}
	opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{4, 4}}
	n := gpuAST(t, tree, opts)
	c := ast.PrintC(n, ast.PrintOptions{})
	if strings.Count(c, "// kernel") != 2 || strings.Count(c, "// thread") != 2 {
		t.Fatalf("want two kernels with threads:\n%s", c)
	}
	mod := tc.emitVerified(t, p, n, opts)
	runChecked(t, tc, p, mod, k.Sizes(polybench.Mini))
	mod, err := Emit(p, n, Options{Target: CUDA})
	if err != nil {
		t.Fatal(err)
	}
	if len(mod.Kernels) != 2 {
		t.Errorf("%d kernels, want 2", len(mod.Kernels))
	}
	checkCUDA(t, tc, mod)
}

// TestCudaHost builds gemm's CUDA host code with the harness and runs it:
// without a GPU driver it must stop with a clear message; with one it
// must compute gemm.
func TestCudaHost(t *testing.T) {
	tc := needTools(t)
	k, _ := polybench.Lookup("gemm")
	p, tree := scheduleKernel(t, k, "smart")
	opts := Options{Target: CUDA}
	mod, err := Emit(p, gpuAST(t, tree, opts), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkIR(t, mod.IR, `c"libcuda.so.1\00"`, "call i8* @dlopen(")
	checkIR(t, mod.IR,
		"@kernel_gemm.ptx = external constant i8",
		"define void @kernel_gemm(i32 %ni, i32 %nj, i32 %nk, double %alpha, double %beta, double* noalias %C, double* noalias %A, double* noalias %B) nounwind {",
		"call void @kernel_gemm.cuda.enter()",
		"call i64 @kernel_gemm.cuda.alloc(",
		"call void @kernel_gemm.cuda.htod(",
		"call void @kernel_gemm.cuda.launch(",
		"call void @kernel_gemm.cuda.sync()",
		"call void @kernel_gemm.cuda.dtoh(",
		"call void @kernel_gemm.cuda.free(")
	host := checkCUDA(t, tc, mod)
	hostMod := *mod
	hostMod.IR = host
	params := k.Sizes(polybench.Mini)
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := tc.build(t, dir, &hostMod, p, params)
	inFile, outFile := writeInput(t, p, in), filepath.Join(dir, "out.bin")
	cmd := exec.Command(bin, inFile, outFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := stderr.String()
		if !strings.Contains(msg, "tilefuse: kernel_gemm: cannot load the CUDA driver libcuda.so.1") &&
			!strings.Contains(msg, "tilefuse: kernel_gemm: cuInit failed: CUDA error") {
			t.Fatalf("the host code failed without the driver's message: %v\n%s", err, msg)
		}
		t.Logf("no GPU here: %s", strings.TrimSpace(msg))
		return
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := charness.Decode(p, in, data)
	if err != nil {
		t.Fatal(err)
	}
	compareArgs(t, p, got, want, 0)
}

// TestCudaMapWavefront maps jacobi-2d fused by the scheduler (smart): one
// permutable band (t, 2t + i, 2t + j) with no coincident member, on its
// own and tiled by 4. gpumap.Map runs its wavefront on the host and the next
// member in parallel (untiled: blocks over strips of it; tiled: blocks
// over the tiles of a wavefront, threads over the points of a wavefront
// inside the tile, with barriers between them).
func TestCudaMapWavefront(t *testing.T) {
	tc := needTools(t)
	k, _ := polybench.Lookup("jacobi-2d")
	p, tree := scheduleKernel(t, k, "smart")
	b := bandPath(t, tree)
	if n, _ := tree.At(b); n.Band().Members() != 3 || !n.Band().Permutable || n.Band().Coincident[0] {
		t.Fatalf("want one permutable band of 3 members:\n%s", tree.Text())
	}
	tiled := mustEdit(t)(tree.TileBand(b, []int64{4, 4, 4}))
	for _, c := range []struct {
		name string
		tree scheduletree.Tree
	}{{"untiled", tree}, {"tiled", tiled}} {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{4, 2}}
			n := gpuAST(t, c.tree, opts)
			code := ast.PrintC(n, ast.PrintOptions{})
			if !strings.Contains(code, "// kernel") || !strings.Contains(code, "// thread") {
				t.Fatalf("no kernel with threads:\n%s", code)
			}
			mod := tc.emitVerified(t, p, n, opts)
			if c.name == "tiled" {
				checkIR(t, mod.IR, "call void @GOMP_barrier()")
			}
			runChecked(t, tc, p, mod, k.Sizes(polybench.Mini))
			mod, err := Emit(p, n, Options{Target: CUDA})
			if err != nil {
				t.Fatal(err)
			}
			checkCUDA(t, tc, mod)
		})
	}
}

// TestCudaMarksPromote maps rowsSrc through its schedule tree: a kernel
// over the rows (legal once T and s are per row), "promote[T]" and
// "promote[s]" marks that make them buffers of the row (ast.Options.
// Buffers), and a thread mark above each column loop. The buffers are
// shared by the block; emulated, B must be the reference's.
func TestCudaMarksPromote(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("rows.c", []byte(rowsSrc), "rows")
	if err != nil {
		t.Fatal(err)
	}
	_, tree := scheduleKernelOf(t, p, "none")
	must := mustEdit(t)
	row := bandPath(t, tree)
	// Thread marks above the column bands, deepest paths first.
	var cols []scheduletree.Path
	tree.Walk(func(at scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && len(at) > len(row) {
			cols = append(cols, append(scheduletree.Path{}, at...))
		}
		return true
	})
	if len(cols) != 2 {
		t.Fatalf("want two column bands:\n%s", tree.Text())
	}
	for i := len(cols) - 1; i >= 0; i-- {
		tree = must(tree.InsertMark(cols[i], scheduletree.MarkThread))
	}
	tree = must(tree.InsertMark(row.Child(0), "promote[s]"))
	tree = must(tree.InsertMark(row.Child(0), "promote[T]"))
	tree = must(tree.InsertMark(row, scheduletree.MarkKernel))
	n, err := ast.Generate(tree, ast.Options{Buffers: map[string]ast.Buffer{
		"T": {Elem: scop.F64, Shape: []ast.Expr{ast.Int(32)}},
		"s": {Elem: scop.F64},
	}})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Target: CUDAEmulate, ThreadSizes: []int64{3}}
	mod := tc.emitVerified(t, p, n, opts)
	checkIR(t, mod.IR, "call void @GOMP_parallel(", "call void @GOMP_barrier()")
	runChecked(t, tc, p, mod, map[string]int64{"n": 20}, "T")
	mod, err = Emit(p, n, Options{Target: CUDA})
	if err != nil {
		t.Fatal(err)
	}
	checkIR(t, mod.KernelIR, "addrspace(3) global [32 x double] undef", "addrspace(3) global [1 x double] undef", "call void @llvm.nvvm.barrier0()")
	checkCUDA(t, tc, mod)
}
