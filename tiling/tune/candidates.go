package tune

import (
	"sort"

	"github.com/tilefuse/tilefuse/fusion"
)

// Values are the tile sizes tried per member: 8, 16, ..., 512.
var Values = []int64{8, 16, 32, 64, 128, 256, 512}

// Candidates returns every combination of values for n members, the
// outermost member varying slowest.
func Candidates(n int, values []int64) [][]int64 {
	if n <= 0 || len(values) == 0 {
		return nil
	}
	out := [][]int64{{}}
	for range n {
		var next [][]int64
		for _, c := range out {
			for _, v := range values {
				next = append(next, append(append([]int64(nil), c...), v))
			}
		}
		out = next
	}
	return out
}

// DefaultInner returns post-tiling fusion's default sizes of the n
// innermost members (fusion.DefaultSizes, the last on the innermost).
func DefaultInner(n int) []int64 {
	d := fusion.DefaultSizes
	if n >= len(d) {
		out := make([]int64, n-len(d), n)
		for i := range out {
			out[i] = 1
		}
		return append(out, d...)
	}
	return append([]int64(nil), d[len(d)-n:]...)
}

// Rank returns a trial per candidate, cheapest in the model first, with
// its rank (1 for the model's pick) and cost.
func Rank(c Costs, s Shape, m Machine, cands [][]int64) []Trial {
	out := make([]Trial, len(cands))
	for i, cand := range cands {
		out[i] = Trial{Sizes: cand, Cost: c.Cost(s, m, cand).Cost}
	}
	sort.SliceStable(out, func(i, k int) bool { return out[i].Cost < out[k].Cost })
	for i := range out {
		out[i].Rank = i + 1
	}
	return out
}

// Tuned is the number of innermost members a candidate sizes: the
// rows and columns of an image (one for one-member bands).
func (s Shape) Tuned() int {
	n := 0
	for _, g := range s.Groups {
		n = max(n, len(g.Extent))
	}
	return min(n, 2)
}

// RankFor ranks every candidate of s on m with the machine's calibrated
// constants when it has them (calibrated reports which), DefaultCosts
// otherwise.
func RankFor(s Shape, m Machine) (trials []Trial, calibrated bool) {
	costs := DefaultCosts
	if dir, err := Dir(); err == nil {
		costs, calibrated = LoadCosts(dir, m)
	}
	return Rank(costs, s, m, Candidates(s.Tuned(), Values)), calibrated
}
