package compiler

import (
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// Options are the decisions of one compilation; the zero value compiles
// the original program order for the CPU, serially, untiled.
type Options struct {
	// Strategy schedules and fuses the program.
	Strategy Strategy
	// Tile tiles the scheduled tree (no tiling without sizes).
	Tile tiling.Policy
	// Target is what the code runs on.
	Target emit.Target
	// Parallel runs the CPU's outermost coincident loops on OpenMP
	// threads; Dynamic hands their iterations out one at a time instead
	// of one block per thread. The GPU targets take their parallelism
	// from the mapping.
	Parallel, Dynamic bool
	// GPU bounds the launches of the GPU targets (threads per block and
	// blocks per grid along x, y, z; gpumap's defaults where missing).
	GPU gpumap.Sizes
	// Func names the emitted function (default: the program's name).
	Func string
	// Context is a parameter set AST generation may assume.
	Context presburger.Set
	// Tree, when set, is the schedule to compile instead of scheduling
	// the program: a user's tree, checked to schedule exactly the
	// program's instances, that the later stages (tiling, mapping, AST,
	// emission) take as the scheduler's.
	Tree *scheduletree.Tree
	// MaxRecompute bounds the recomputation post-tiling fusion accepts
	// for a fused space (fusion.Options.MaxRecompute: zero is
	// fusion.DefaultMaxRecompute, negative is no bound); Estimate gives
	// the parameter values it estimates at.
	MaxRecompute float64
	Estimate     map[string]int64
	// InnerTile, for strategy Post without Tile sizes, sizes the
	// innermost members of the tiled spaces' bands in place of
	// fusion.DefaultSizes (fusion.Options.Inner): what `tilefuse tune`
	// chooses and --tile tuned gives.
	InnerTile []int64
	// NoInline keeps every stage: without it, strategy Post first
	// substitutes the cheap pointwise stages into their consumers
	// (package inline; not with a given Tree, whose statements are the
	// program's own).
	NoInline bool
	// KeepScalars keeps every temporary scalar: without it, the
	// scheduling strategies (Min, Smart, Max, Post) first map a scalar
	// that carries a value through a loop onto the array element the
	// value is stored to, where the dataflow allows it exactly (package
	// delicm; not with a given Tree).
	KeepScalars bool
	// KeepLayout keeps every array's layout: without it, strategies Min
	// and Post (so Auto) give a read-only array that a statement reads
	// across its rows, where no loop order makes every access contiguous,
	// a transposed copy in a temporary (package transpose; not with a
	// given Tree, nor for Smart and Max, which would fuse the copy into
	// its readers).
	KeepLayout bool
	// RecomputeTables computes the program's constant tables at every
	// call: by default the CPU target computes them on a calling thread's
	// first call and keeps them in its workspace (emit.Options.KeepTables;
	// Result.Kept lists them).
	RecomputeTables bool
	// Stop ends the compilation after this stage (zero: after Emit).
	Stop Stage
	// MaxOps caps the solver steps of each presburger operation and
	// MaxPieces the disjuncts one may hold (zero: presburger.DefaultLimits).
	// Like a deadline, they make the compilation exclusive in the process.
	MaxOps    int64
	MaxPieces int
	// ScheduleWork is the scheduling budget: the solver work the
	// Pluto-style scheduler may spend in all (scheduler.Options.MaxWork;
	// zero: scheduler.DefaultMaxWork, four times as much for strategy
	// max; negative: none).
	ScheduleWork int64
	// MaxNodes bounds the size of the generated AST (ast.Options.MaxNodes;
	// zero: ast.DefaultMaxNodes; negative: none).
	MaxNodes int
}

// Stage names a step of Compile.
type Stage int

// The stages in order.
const (
	StageSchedule Stage = iota + 1
	StageTile
	StageFuse
	StageMap
	StageAST
	StageEmit
)

var stageNames = [...]string{StageSchedule: "schedule", StageTile: "tile", StageFuse: "fuse", StageMap: "map", StageAST: "ast", StageEmit: "emit"}

func (s Stage) String() string {
	if s > 0 && int(s) < len(stageNames) {
		return stageNames[s]
	}
	return "stage?"
}
