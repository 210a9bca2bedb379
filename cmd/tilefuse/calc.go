package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/calc"
)

const calcHelp = `
Evaluates a calculator script, a subset of iscc (the isl calculator), read
from FILE or from standard input when FILE is absent or "-". Each statement
is NAME := expr; or expr; which prints the value of expr on its own line.

	S := [N] -> { A[i] : 0 <= i < N };
	M := { A[i] -> A[i + 1] };
	M(S);                      # [N] -> { A[i] : 0 < i <= N }

Operators, loosest first: = and <= (equal, subset; print True or False);
+ (union) and - (difference); * (intersection, map * set restricts the
domain), . (join: A . B is B after A) and % (gist); the prefix operators
dom, ran, deltas, params, sample, lexmin, lexmax, coalesce, card (number
of points of a bounded parameter-free set); postfix ^-1 (reverse) and M(S)
(image of S under M). # starts a comment.

--max-ops N caps the solver steps (simplex pivots, integer search nodes) of
each operation; an operation that needs more fails with "operation budget
exceeded" (exit status 2) instead of running on. Loops that never reach
the solver are charged too: each pair of disjuncts coalesce tries, each
subtraction card makes disjoint. Coalesce stops early when the budget is
spent and prints the set as far as it got (less coalesced, still exact).

Errors are reported as FILE:LINE:COL: message, with exit status 2.
`

func runCalc(e *env, args []string) int {
	cmd := lookup("calc")
	fs := flag.NewFlagSet("calc", flag.ContinueOnError)
	maxOps := fs.Int64("max-ops", presburger.DefaultLimits.MaxOps, "solver steps allowed per operation")
	if err := parseFlags(fs, e, cmd, calcHelp, args); err != nil {
		return exitUsageOr(err)
	}
	if *maxOps <= 0 {
		fmt.Fprintf(e.stderr, "tilefuse calc: --max-ops must be positive, not %d\n", *maxOps)
		return exitUsage
	}
	old := presburger.CurrentLimits()
	defer presburger.SetLimits(old)
	presburger.SetLimits(presburger.Limits{MaxOps: *maxOps, MaxPieces: old.MaxPieces})
	if fs.NArg() > 1 {
		fmt.Fprintf(e.stderr, "tilefuse calc: too many arguments; usage: tilefuse calc %s\n", cmd.args)
		return exitUsage
	}
	file, src, err := readInput(e, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse calc: %v\n", err)
		return exitUsage
	}
	return evalCalc(e, file, src)
}

// parseFlags parses args. Help that was asked for goes to stdout; a flag
// error is one line on stderr.
func parseFlags(fs *flag.FlagSet, e *env, cmd *command, help string, args []string) error {
	args = prepareSourceFlags(fs, args)
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			commandUsage(e.stdout, cmd, help)
			return flag.ErrHelp
		}
	}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse %s: %v (see 'tilefuse %s -h')\n", cmd.name, err, cmd.name)
	}
	return err
}

func exitUsageOr(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

func readInput(e *env, name string) (file, src string, err error) {
	var data []byte
	if name == "" || name == "-" {
		name = "<stdin>"
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	return name, string(data), err
}

// evalCalc runs a script, printing values as they come so that output
// before an error is kept.
func evalCalc(e *env, file, src string) (status int) {
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	defer func() {
		// A panic here is a bug in tilefuse, but the contract is one line
		// on stderr and no stack trace; TILEFUSE_PANIC=1 shows the trace.
		if r := recover(); r != nil {
			if os.Getenv("TILEFUSE_PANIC") != "" {
				panic(r)
			}
			out.Flush()
			fmt.Fprintf(e.stderr, "%s: internal error (a bug in tilefuse, please report it): %v\n", file, r)
			status = exitUsage
		}
	}()
	prog, err := calc.Parse(file, src)
	if err == nil {
		err = calc.Run(prog, calc.Tilefuse{}, func(o calc.Output) error {
			_, err := fmt.Fprintln(out, o.Text)
			return err
		})
	}
	if err != nil {
		out.Flush()
		if errors.Is(err, presburger.ErrBudget) {
			err = fmt.Errorf("%w (the limit of each operation, %d solver steps; raise it with --max-ops N)", err, presburger.CurrentLimits().MaxOps)
		}
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	return exitOK
}
