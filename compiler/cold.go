package compiler

import (
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"sort"
)

// coldShare bounds the instances of the cold statements together, as a
// share of the program's: even ten times slower without vectorization,
// they would add about 2% to the run time.
const coldShare = 512

// coldEstimate is the value a parameter takes in the estimate when
// Options.Estimate gives none (as in post-tiling fusion's estimate).
const coldEstimate = 2048

// maxColdNodes bounds the enumeration of one statement's instances
// (presburger.Set.CountWithin); a larger statement is counted by its
// bounding box.
const maxColdNodes = 1 << 15

// coldStatements names the smallest statements of p that together run
// fewer than 1/coldShare of its instances, with the parameters at the
// values of estimate (2048 where missing): an image border's clamped
// values, the coarse levels of a pyramid, a scalar's initialisation. The
// emitter asks LLVM not to vectorize or unroll the loops that run only
// such statements: those loops are much of the code of a fused pipeline
// and little of its time, and optimising them is much of opt's and llc's
// time. Nothing is cold when a statement cannot be estimated.
func coldStatements(p *scop.Program, estimate map[string]int64) map[string]bool {
	counts := make([]float64, len(p.Stmts))
	total := 0.0
	for i, s := range p.Stmts {
		n, ok := instances(s.Domain, estimate)
		if !ok {
			return nil
		}
		counts[i] = n
		total += n
	}
	order := make([]int, len(p.Stmts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] < counts[order[b]] })
	var cold map[string]bool
	sum := 0.0
	for _, i := range order {
		if sum += counts[i]; sum*coldShare >= total {
			break
		}
		if cold == nil {
			cold = map[string]bool{}
		}
		cold[p.Stmts[i].Name] = true
	}
	return cold
}

// instances estimates the points of dom with its parameters fixed: for a
// union of several pieces (an image's border) the exact count when its
// enumeration is small, else the points of its bounding box.
func instances(dom presburger.Set, estimate map[string]int64) (float64, bool) {
	vals := map[string]int64{}
	for _, name := range dom.Space().Params {
		vals[name] = coldEstimate
		if v, ok := estimate[name]; ok {
			vals[name] = v
		}
	}
	fixed, err := dom.FixParams(vals)
	if err != nil {
		return 0, false
	}
	box, err := fixed.BoxHull()
	if err != nil {
		return 0, false
	}
	if box == nil {
		return 0, true
	}
	size := 1.0
	for _, d := range box {
		lo, hi, okLo, okHi := d.Range()
		if !okLo || !okHi {
			return 0, false
		}
		size *= float64(hi - lo + 1)
	}
	if fixed.NumBasic() <= 1 {
		return size, true
	}
	n, err := fixed.CountWithin(maxColdNodes)
	if err != nil {
		return size, true
	}
	return float64(n), true
}
