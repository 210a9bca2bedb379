package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

const gpuHelp = `
Builds here, runs there: the GPU programs are built on this machine and
run on a machine that has the NVIDIA driver and nothing else (no CUDA
toolkit, no compiler, no Go).

'gpu build DIR' compiles, under strategy post for --target cuda, the 30
PolyBench kernels at MINI and MEDIUM, the pipelines of 'bench polymage'
at their default sizes, and gemm, 2mm, jacobi-2d and heat-3d at LARGE
(timing). Each program's kernels become PTX with llc -march=nvptx64
(DIR/ptx/NAME.ptx; math functions linked from libdevice or libclc as
'compile --target cuda' does); its host code, built for generic x86-64,
embeds the PTX and opens libcuda.so.1 through the driver API; each size
links it with the timing harness of 'run' into DIR/bin/NAME-SIZE, which
needs only libc, libm and libdl. DIR/manifest.json lists every binary
with the SHA-256 of its input file and of the output the reference
computes here (the reference executor, or the naive C where the program
calls math functions or is too big). DIR/tilefuse is not written: the
scripts build it (scripts/gpu/build.sh). --only NAMES (a comma list of
SOURCEs) keeps those programs; --small builds PolyBench at MINI and the
pipelines at their test sizes only; --target cuda-emulate builds the
emulated mapping instead (OpenMP threads on this machine, to test the
scripts without a GPU).

'gpu run [--for D] DIR ARCHIVE' (on the GPU machine) regenerates each
input, checks its SHA-256, runs each binary once with REPEAT timed calls
(the first call, which loads the driver, the context and the module, is
timed apart from the steady state: the median of the others), hashes
its output and writes one gzipped tar, ARCHIVE, holding manifest.json
and results.json. It starts no binary after D (default 270s).

'gpu read ARCHIVE' prints the verified table: each binary, whether its
output equals the reference bit for bit, its first call and its
steady-state time. The host code times whole calls: transfers and
kernels are not timed apart. Exit status 1 when any binary failed or
differs.
`

// gpuManifest describes a built GPU bundle.
type gpuManifest struct {
	Target   string     `json:"target"`
	Strategy string     `json:"strategy"`
	Built    string     `json:"built"`
	Entries  []gpuEntry `json:"entries"`
}

// gpuEntry is one binary of a bundle: a program at one size.
type gpuEntry struct {
	Source string           `json:"source"`
	Size   string           `json:"size"`
	Params map[string]int64 `json:"params"`
	Bin    string           `json:"bin"`
	Repeat int              `json:"repeat"`
	// Input and Want are the SHA-256 of the harness's input file and of
	// the output file the reference computes (harness format).
	Input     string `json:"input_sha256"`
	Want      string `json:"want_sha256"`
	Reference string `json:"reference"`
	// Math lists the libdevice functions the kernels call: their results
	// come from CUDA's or libclc's math on the GPU, from glibc here.
	Math []string `json:"math,omitempty"`
}

// gpuSize is one size of a program in the bundle.
type gpuSize struct {
	label  string
	params map[string]int64
}

// gpuPlanItem is one program and its sizes.
type gpuPlanItem struct {
	source string
	sizes  []gpuSize
}

// gpuTimingKernels are built at LARGE too, for their timings.
var gpuTimingKernels = []string{"gemm", "2mm", "jacobi-2d", "heat-3d"}

// gpuPlan lists what 'gpu build' builds (only: the SOURCEs kept, all when
// empty).
func gpuPlan(small bool, only []string) []gpuPlanItem {
	var plan []gpuPlanItem
	for _, k := range polybench.Kernels() {
		datasets := []polybench.Dataset{polybench.Mini}
		if !small {
			datasets = append(datasets, polybench.Medium)
			if slices.Contains(gpuTimingKernels, k.Name) {
				datasets = append(datasets, polybench.Large)
			}
		}
		item := gpuPlanItem{source: "polybench/" + k.Name}
		for _, d := range datasets {
			item.sizes = append(item.sizes, gpuSize{d.String(), k.Sizes(d)})
		}
		plan = append(plan, item)
	}
	for _, e := range polymage.All() {
		size := gpuSize{"default", e.Defaults}
		if small {
			size = gpuSize{"small", e.Small}
		}
		plan = append(plan, gpuPlanItem{"polymage/" + e.Name, []gpuSize{size}})
	}
	if len(only) > 0 {
		plan = slices.DeleteFunc(plan, func(it gpuPlanItem) bool { return !slices.Contains(only, it.source) })
	}
	return plan
}

func runGPU(e *env, args []string) int {
	cmd := lookup("gpu")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse gpu: "+format+"\n", a...)
		return exitUsage
	}
	if len(args) == 0 {
		return fail("want build, run or read; usage: tilefuse gpu %s", cmd.args)
	}
	switch args[0] {
	case "build":
		return gpuBuildCmd(e, cmd, args[1:])
	case "run":
		return gpuRunCmd(e, cmd, args[1:])
	case "read":
		return gpuReadCmd(e, cmd, args[1:])
	case "-h", "-help", "--help":
		commandUsage(e.stdout, cmd, gpuHelp)
		return exitOK
	}
	return fail("unknown subcommand %q (build, run or read)", args[0])
}

func gpuBuildCmd(e *env, cmd *command, args []string) int {
	fs := flag.NewFlagSet("gpu build", flag.ContinueOnError)
	only := fs.String("only", "", "a comma list of SOURCEs to build (default: all)")
	small := fs.Bool("small", false, "PolyBench at MINI and the pipelines at their test sizes only")
	target := fs.String("target", "cuda", "cuda, or cuda-emulate to test the scripts here")
	pos, err := parseInterspersed(fs, e, cmd, gpuHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse gpu build: "+format+"\n", a...)
		return exitUsage
	}
	if len(pos) != 1 {
		return fail("want one DIR; usage: tilefuse gpu %s", cmd.args)
	}
	tg, err := emit.ParseTarget(*target)
	if err != nil || !tg.GPU() {
		return fail("--target %s: want cuda or cuda-emulate", *target)
	}
	var names []string
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	plan := gpuPlan(*small, names)
	for _, n := range names {
		if !slices.ContainsFunc(plan, func(it gpuPlanItem) bool { return it.source == n }) {
			return fail("--only: %q is no PolyBench kernel or polymage pipeline (polybench/NAME, polymage/NAME)", n)
		}
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse gpu build: %v\n", err)
		return exitUsage
	}
	tc.CPU = "x86-64" // host code for any x86-64 machine
	dir := pos[0]
	for _, sub := range []string{"bin", "ptx"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return fail("%v", fileError(err))
		}
	}
	b := &gpuBuilder{tc: tc, dir: dir, target: tg}
	entries := make([][]gpuEntry, len(plan))
	errs := make([]error, len(plan))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				start := time.Now()
				entries[i], errs[i] = b.build(context.Background(), plan[i])
				fmt.Fprintf(e.stderr, "tilefuse gpu build: %s: %d sizes in %v\n", plan[i].source, len(entries[i]), time.Since(start).Round(time.Millisecond))
			}
		}()
	}
	for i := range plan {
		work <- i
	}
	close(work)
	wg.Wait()
	m := gpuManifest{Target: tg.String(), Strategy: compiler.Post.String(), Built: time.Now().UTC().Format(time.RFC3339)}
	for i, err := range errs {
		if err != nil {
			return fail("%s: %v", plan[i].source, err)
		}
		m.Entries = append(m.Entries, entries[i]...)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fail("%v", err)
	}
	if err := writeWhole(filepath.Join(dir, "manifest.json"), append(data, '\n')); err != nil {
		return fail("%v", fileError(err))
	}
	fmt.Fprintf(e.stdout, "%d binaries of %d programs in %s\n", len(m.Entries), len(plan), dir)
	return exitOK
}

// gpuBuilder builds the programs of a bundle into dir.
type gpuBuilder struct {
	tc     *runner.Toolchain
	dir    string
	target emit.Target
}

// build compiles one program and links it at each of its sizes.
func (b *gpuBuilder) build(ctx context.Context, it gpuPlanItem) ([]gpuEntry, error) {
	progs, err := loadPrograms(it.source, "")
	if err != nil {
		return nil, err
	}
	p := progs[0]
	fn := emittedName(it.source, p)
	r, err := compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Post, Target: b.target, Func: fn})
	if err != nil {
		return nil, err
	}
	base := strings.ReplaceAll(it.source[strings.Index(it.source, "/")+1:], "_", "-")
	host, libs := r.Module.IR, []string{"-lm", "-ldl"}
	var math []string
	if b.target == emit.CUDA {
		math = emit.CUDAMathCalls(r.Module.KernelIR)
		ptx, ir, err := cudaHost(ctx, b.tc, r.Module)
		if err != nil {
			return nil, err
		}
		if err := writeWhole(filepath.Join(b.dir, "ptx", base+".ptx"), []byte(ptx)); err != nil {
			return nil, err
		}
		host = ir
	} else {
		libs = append(libs, "-fopenmp")
	}
	tmp, err := os.MkdirTemp("", "tilefuse-gpu-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	obj := filepath.Join(tmp, "kernel.o")
	if err := b.tc.ObjectContext(ctx, host, obj); err != nil {
		return nil, err
	}
	var out []gpuEntry
	for _, sz := range it.sizes {
		ent, err := b.link(ctx, it.source, p, fn, sz, obj, base, tmp, libs)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", sz.label, err)
		}
		ent.Math = math
		out = append(out, ent)
	}
	return out, nil
}

// link builds the binary of p at size sz and computes its reference.
func (b *gpuBuilder) link(ctx context.Context, source string, p *scop.Program, fn string, sz gpuSize, obj, base, tmp string, libs []string) (gpuEntry, error) {
	ent := gpuEntry{Source: source, Size: sz.label, Params: sz.params, Bin: filepath.Join("bin", base+"-"+sz.label), Repeat: 10}
	h, err := runner.Harness(p, sz.params, fn)
	if err != nil {
		return ent, err
	}
	main := filepath.Join(tmp, "main-"+sz.label+".o")
	if err := ctool.Compile(ctx, b.tc.CC, nil, h, filepath.Join(tmp, "main-"+sz.label+".c"), main, []string{"-c", "-O2"}); err != nil {
		return ent, err
	}
	bin := filepath.Join(b.dir, ent.Bin)
	if err := ctool.Run(ctx, nil, b.tc.CC, append([]string{"-o", bin, obj, main}, libs...)...); err != nil {
		return ent, err
	}
	given, args, err := gpuInputs(source, p, sz.params)
	if err != nil {
		return ent, err
	}
	in, err := charness.Encode(p, args)
	if err != nil {
		return ent, err
	}
	ent.Input = sha256Hex(in)
	exp, err := b.tc.ExpectContext(ctx, p, runner.Options{Params: sz.params, Inputs: given, Reference: runner.RefAuto})
	if err != nil {
		return ent, err
	}
	ent.Reference = exp.Reference.String()
	for name, buf := range exp.Arrays {
		if _, ok := args[name]; ok {
			args[name] = buf
		}
	}
	want, err := charness.Encode(p, args)
	if err != nil {
		return ent, err
	}
	ent.Want = sha256Hex(want)
	return ent, nil
}

// gpuInputs returns the inputs a benchmark brings (given) and the
// harness's array arguments with them (args), as 'run' makes them.
func gpuInputs(source string, p *scop.Program, params map[string]int64) (given, args map[string]*scop.Buffer, err error) {
	given, err = sourceInputs(source, p, params)
	if err != nil {
		return nil, nil, err
	}
	args, err = charness.Arguments(p, params, given)
	return given, args, err
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
