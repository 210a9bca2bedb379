package compiler

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/scheduler"
)

// Strategy is how a program is scheduled and fused.
type Strategy int

// The strategies, in the order of bench's columns.
const (
	// None keeps the original program order (scheduler.Original).
	None Strategy = iota
	// Min, Smart and Max run the Pluto-style scheduler with that fusion
	// heuristic (scheduler.FuseMin, FuseSmart, FuseMax): every strongly
	// connected component apart; fuse where no parallel member is lost;
	// fuse wherever legal.
	Min
	Smart
	Max
	// Post is post-tiling fusion (package fusion): the conservative
	// schedule (Min), each live-out space tiled, and the intermediate
	// spaces its tiles need fused into them with extension nodes.
	Post
	// Schedule compiles the Halide-style call schedule written with a Go
	// DSL pipeline (compute and store levels, splits, parallel and
	// vector loops: fusion.Scheduled), checked like Post's trees.
	Schedule
	// Auto picks for the program (resolveAuto): post-tiling fusion with
	// the cost model's tile sizes where it fuses stages; otherwise, on the
	// CPU, Min with its bands of two or more members tiled 32 where
	// tiles bring reuse or parallelism (tiling.Policy.OnlyReuse; on the
	// GPU targets DefaultStrategy). Result.Auto says what it picked.
	Auto
)

// DefaultStrategy is the command line's default.
const DefaultStrategy = Smart

var strategyNames = [...]string{None: "none", Min: "min", Smart: "smart", Max: "max", Post: "post", Schedule: "schedule", Auto: "auto"}

// strategyHelp says in a few words what each strategy does, for help texts.
var strategyHelp = [...]string{
	None:     "the original program order",
	Min:      "Pluto-style schedule, every strongly connected component apart",
	Smart:    "Pluto-style schedule, fused where no parallel loop is lost",
	Max:      "Pluto-style schedule, fused wherever legal",
	Post:     "post-tiling fusion: live-out tiles with their producers fused in",
	Schedule: "the pipeline's own Halide-style schedule (compute_at, store_at, split, parallel, ...)",
	Auto:     "post with the cost model's tile sizes where it fuses stages, else min tiled 32",
}

// Strategies lists every strategy, in column order.
func Strategies() []Strategy {
	out := make([]Strategy, len(strategyNames))
	for i := range out {
		out[i] = Strategy(i)
	}
	return out
}

// StrategyNames lists the strategies' names, in column order.
func StrategyNames() []string { return append([]string(nil), strategyNames[:]...) }

func (s Strategy) String() string {
	if s >= 0 && int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// Describe says what the strategy does, for help texts.
func (s Strategy) Describe() string {
	if s >= 0 && int(s) < len(strategyHelp) {
		return strategyHelp[s]
	}
	return s.String()
}

// StrategyChoices is the list of names as help and error messages print
// it: "none, min, smart, max or post".
func StrategyChoices() string { return orList(strategyNames[:]) }

// ParseStrategy reads a strategy's name.
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown fusion strategy %q (%s)", name, StrategyChoices())
}

// fuse is the scheduler's heuristic of a Pluto-style strategy.
func (s Strategy) fuse() (scheduler.Fuse, bool) {
	switch s {
	case Min, Post:
		return scheduler.FuseMin, true
	case Smart:
		return scheduler.FuseSmart, true
	case Max:
		return scheduler.FuseMax, true
	}
	return 0, false
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
