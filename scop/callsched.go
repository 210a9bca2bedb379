package scop

// CallSchedule is a Halide-style schedule of a pipeline's functions,
// written with the program (the Go DSL's schedule calls): where each
// function is computed and stored, and how its loops are split,
// reordered, parallelised, vectorised and unrolled. Package fusion turns
// it into a schedule tree (fusion.Scheduled).
type CallSchedule struct {
	// Funcs holds one entry per function of the pipeline, producers
	// first (the order of the program's statements).
	Funcs []*FuncSchedule
	// Written says that the pipeline made schedule calls (without any,
	// every function gets the default).
	Written bool
}

// Func returns the schedule of function name, or nil.
func (c *CallSchedule) Func(name string) *FuncSchedule {
	if c == nil {
		return nil
	}
	for _, f := range c.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// FuncSchedule is one function's part of a CallSchedule.
type FuncSchedule struct {
	Name string
	// Stmts are the function's statements: the cases of its pure
	// definition (the first Pure), then its updates.
	Stmts []string
	Pure  int
	// Vars are the function's pure variables, outermost first: the
	// iterators of Stmts[0].
	Vars []string
	// Mins are the variables' lower bounds, affine in the parameters
	// (isl text): Split counts blocks from there, as Halide splits from
	// a loop's minimum.
	Mins []string
	// Compute is where the function is computed; Store where its storage
	// lives (LevelDefault: where it is computed).
	Compute, Store Level
	// Loops are the loop directives, in the order they were given.
	Loops []LoopStep
	// Folds are the explicit storage folds.
	Folds []Fold
	// Output says that the function is a pipeline output.
	Output bool
	// At is where the function was declared.
	At Pos
}

// LevelKind says where a function is computed or stored.
type LevelKind int

const (
	// LevelDefault leaves the choice to the default: a pure function
	// that is not an output is inlined, any other computed at the root.
	LevelDefault LevelKind = iota
	// LevelInline substitutes the function into its consumers.
	LevelInline
	// LevelRoot computes (or stores) the whole function outside every
	// loop.
	LevelRoot
	// LevelAt computes (or stores) the function inside the loop of
	// variable Var of function Func.
	LevelAt
)

// Level is a place in the loop nest: the root, or the loop of variable
// Var of function Func (LevelAt).
type Level struct {
	Kind      LevelKind
	Func, Var string
	At        Pos
}

// LoopOp is a loop directive.
type LoopOp int

const (
	// LoopSplit splits Var into Outer and Inner with Factor.
	LoopSplit LoopOp = iota + 1
	// LoopReorder orders the loops of Order, outermost first.
	LoopReorder
	// LoopParallel runs the loop of Var in parallel.
	LoopParallel
	// LoopVectorize vectorises the loop of Var, which must be innermost.
	LoopVectorize
	// LoopUnroll unrolls the loop of Var.
	LoopUnroll
)

// LoopStep is one loop directive.
type LoopStep struct {
	Op           LoopOp
	Var          string
	Outer, Inner string
	Factor       int64
	Order        []string
	At           Pos
}

// Fold folds the storage of the function's dimension Var to a ring of
// Extent elements.
type Fold struct {
	Var    string
	Extent int64
	At     Pos
}
