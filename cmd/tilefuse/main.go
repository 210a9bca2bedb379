package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"
)

// Exit statuses.
const (
	exitOK    = 0
	exitCheck = 1 // a check (verification, comparison) failed
	exitUsage = 2 // bad input or usage
)

// env is what a command may touch, so tests run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name, args, summary string
	run                 func(e *env, args []string) int
}

// commands is filled in init to let help refer to the table.
var commands []*command

func init() {
	commands = []*command{
		{name: "calc", args: "[--max-ops N] [FILE]", summary: "evaluate an isl-notation calculator script (a subset of iscc)", run: runCalc},
		{name: "scop", args: "[--format text|json|jscop] [--func NAME] [--list] SOURCE", summary: "show the polyhedral program model of a C file or built-in benchmark", run: runScop},
		{name: "tree", args: "[--fuse auto|none|min|smart|max|post|schedule] [--tile T,...] [--format text|json|yaml|jscop] [--jscop FILE,...] [--polly FILE,...] [--func NAME] SOURCE", summary: "print the schedule tree of a program", run: runTree},
		{name: "ast", args: "[--fuse auto|none|min|smart|max|post|schedule] [--tile T,...] [--separate] [--parallel] [--context SET] [--c [--name NAME]] [--stats [--dataset D] [--size N=V,...]] [--func NAME] [--tree TREE [--unchecked]] [-o FILE] [SOURCE]", summary: "generate the loops of a program or schedule tree and print them as C", run: runAST},
		{name: "compile", args: "[--target cpu|cuda|cuda-emulate] [--fuse auto|none|min|smart|max|post|schedule] [--tile T,...] [--func NAME] [--parallel] [--jscop FILE,...] [-c] -o OUT SOURCE", summary: "compile a program to LLVM IR and a C header, or with -c to an object file", run: runCompile},
		{name: "run", args: "[--dataset MINI..EXTRALARGE | --size N=V,...] [--threads N] [--repeat R] [--fuse ...] [--tile ...] [options] SOURCE", summary: "compile, build, run on generated inputs, check against the reference and time", run: runRun},
		{name: "bench", args: "polybench|polymage [--dataset D] [--size S] [--only NAMES] [--threads N] [--repeat R] [--strategies S,...] [--tile T,...] [--peers P,...] [--fp-contract] [--baseline COL] [--format table|csv|json] [--limit=false]", summary: "benchmark a suite under tilefuse's strategies and peer compilers, checked and timed", run: runBench},
		{name: "tune", args: "[--fuse post] [--dataset D | --size N=V,...] [--threads N] [--repeat R] [--budget D] [--top K] [--format table|json] SOURCE | --calibrate", summary: "choose post-tiling fusion's tile sizes by the cost model and by running them, for --tile tuned", run: runTune},
		{name: "explain", args: "[--fuse post] [--tile T,...] [--target cpu|cuda|cuda-emulate] [--dataset D | --size N=V,...] [--format text|json] [--func NAME] SOURCE", summary: "say, per computation space, whether post-tiling fusion fused it, where, with what overlap, or why not", run: runExplain},
		{name: "check-tree", args: "[--func NAME] SOURCE TREE", summary: "check a schedule tree's legality and band flags against a program's dependences", run: runCheckTree},
		{name: "draw", args: "tiles|tree [--fuse S] [--tile T,...] [--stage NAME] [--size N=V,...] [--tree FILE] [--format svg|dot] [-o FILE.svg] SOURCE", summary: "draw a stage's tiles and producer footprints, or a schedule tree, as SVG", run: runDraw},
		{name: "plot", args: "[--format svg|html] [-o FILE] BENCH.json", summary: "chart a benchmark's JSON results: speed-ups against the baseline", run: runPlot},
		{name: "gpu", args: "build [--only NAMES] [--small] [--target cuda|cuda-emulate] DIR | run [--for D] DIR ARCHIVE | read ARCHIVE", summary: "build the GPU binaries here, run them on a machine with only the NVIDIA driver, read the verified table", run: runGPU},
		{name: "help", args: "[COMMAND]", summary: "show help for tilefuse or a command", run: runHelp},
	}
}

func main() {
	if os.Getenv("GOGC") == "" && len(os.Args) > 1 && os.Args[1] != "run" && os.Args[1] != "bench" {
		// The presburger library allocates many short-lived rows: with
		// the heap allowed to grow 4x between collections (about 140 MB
		// for local_laplacian), a compilation spends a quarter less CPU.
		// Not for run and bench, which hold whole images: their heap
		// would grow to 5 times those (15 GB for the PolyMage suite).
		debug.SetGCPercent(400)
	}
	stop := startProfile(os.Getenv("TILEFUSE_CPUPROFILE"))
	status := run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(status)
}

// startProfile writes a CPU profile of the whole command to path (for
// 'go tool pprof') when path is not empty; the returned func ends it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "tilefuse: TILEFUSE_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return exitOK
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(e.stderr, "tilefuse: unknown command %q\n", args[0])
		usage(e.stderr)
		return exitUsage
	}
	return cmd.run(e, args[1:])
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func usage(w io.Writer) {
	fmt.Fprint(w, `tilefuse is a polyhedral compiler: exact integer sets and relations,
schedules, tiling and post-tiling fusion.

Usage:

	tilefuse <command> [arguments]

Commands:

`)
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'tilefuse <command> -h' for the details of a command.
Exit status: 0 on success, 1 when a check fails, 2 on bad input or usage.
`)
}

func runHelp(e *env, args []string) int {
	switch {
	case len(args) == 0:
		usage(e.stdout)
		return exitOK
	case len(args) > 1:
		fmt.Fprintln(e.stderr, "usage: tilefuse help [COMMAND]")
		return exitUsage
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		fmt.Fprintln(e.stdout, "usage: tilefuse help [COMMAND]\n\nShows help for tilefuse or one of its commands.")
		return exitOK
	}
	cmd := lookup(args[0])
	if cmd == nil {
		fmt.Fprintf(e.stderr, "tilefuse help: unknown command %q\n", args[0])
		return exitUsage
	}
	return cmd.run(e, []string{"-h"})
}

// commandUsage writes a command's usage line and explanation.
func commandUsage(w io.Writer, c *command, text string) {
	fmt.Fprintf(w, "usage: tilefuse %s %s\n\n%s\n", c.name, c.args, strings.TrimSpace(text))
}
