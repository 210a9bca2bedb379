package scheduler

import "fmt"

// Fuse selects the fusion heuristic (see the package documentation).
type Fuse int

// The fusion heuristics.
const (
	// FuseSmart fuses strongly connected components as long as no
	// coincident (parallel) member is lost. It is the zero value.
	FuseSmart Fuse = iota
	// FuseMin gives every strongly connected component its own band.
	FuseMin
	// FuseMax fuses wherever a common hyperplane exists.
	FuseMax
)

var fuseNames = [...]string{FuseSmart: "smart", FuseMin: "min", FuseMax: "max"}

func (f Fuse) String() string {
	if f >= 0 && int(f) < len(fuseNames) {
		return fuseNames[f]
	}
	return fmt.Sprintf("Fuse(%d)", int(f))
}

// ParseFuse reads "min", "smart" or "max".
func ParseFuse(s string) (Fuse, error) {
	for i, n := range fuseNames {
		if n == s {
			return Fuse(i), nil
		}
	}
	return 0, fmt.Errorf("scheduler: unknown fusion heuristic %q (want min, smart or max)", s)
}

// Options configures Schedule.
type Options struct {
	Fuse Fuse
	// ParamShifts lets hyperplanes have parameter coefficients,
	// phi(i) = c·i + d·params + c0. Off by default, as in Pluto: with them
	// the solver "fuses" loops that have no common hyperplane by putting
	// one after the other along a dimension (i and n + i), which is legal
	// but only serializes them, costs parallelism, and makes the integer
	// programs larger.
	ParamShifts bool
	// KeepOrder leaves each band's members in the order the hyperplane
	// problem found them. By default the member of best access locality
	// of a band that ends every statement's schedule is moved innermost
	// (Pluto's intra-tile optimisation; see innermostForLocality).
	KeepOrder bool
	// Siblings, with FuseMin, lets consecutive components of one
	// statement each that update the same array, with no dependence
	// between them, share their bands when those can keep a coincident
	// outer member: two updates of one function over the same pixels (a
	// Halide tuple update, such as a bilateral grid's value and weight)
	// then take one pass over their domain instead of two.
	Siblings bool
	// MaxWork is the scheduling budget: the solver work Schedule may
	// spend in all, in tableau entries updated (zero: DefaultMaxWork;
	// negative: no budget). Past it, Schedule returns a *BudgetError.
	MaxWork int64
}
