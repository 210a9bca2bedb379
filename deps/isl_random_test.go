//go:build isl && cgo

package deps

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// defaultRandomPrograms is the number of random programs compared with
// isl; TILEFUSE_DEPS_CASES overrides it.
const defaultRandomPrograms = 200

func TestRandomProgramsAgreeWithISL(t *testing.T) {
	n := defaultRandomPrograms
	if s := os.Getenv("TILEFUSE_DEPS_CASES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		n = v
	}
	agreed := 0
	for seed := range n {
		d := randomProg(uint64(seed))
		p, err := d.program()
		if err != nil {
			t.Fatalf("seed %d: building %s: %v\n%s", seed, d.name, err, d)
		}
		if err := agreeProgram(p); err != nil {
			t.Errorf("seed %d: %v\n%s", seed, err, d)
			continue
		}
		agreed++
	}
	t.Logf("%d of %d random programs agree with isl", agreed, n)
}

// String lists the program in the builder's notation, to reproduce a
// failure.
func (d prog) String() string {
	var b strings.Builder
	for _, s := range d.stmts {
		fmt.Fprintf(&b, "  %s  %s  %s = f(%s)\n", s.domain, s.sched, s.write, strings.Join(s.reads, ", "))
	}
	return b.String()
}

// randomProg builds 2 to 5 statements in a random loop nest of depth up
// to 2 with a 2d+1 schedule, random affine accesses to a 1-D array A, a
// 2-D array B and a scalar s, and some data-dependent subscripts
// (may-accesses through the index array idx).
func randomProg(seed uint64) prog {
	r := rand.New(rand.NewPCG(seed, 0x7d1))
	d := prog{
		name: fmt.Sprintf("random%d", seed), params: []string{"N"}, context: "[N] -> { : N >= 2 }",
		arrays: []arr{
			{name: "A", typ: scop.F64, extent: []string{"2*N + 4"}, in: true, out: true},
			{name: "B", typ: scop.F64, extent: []string{"N + 2", "N + 2"}, in: true, out: true},
			{name: "s", typ: scop.F64, in: true, out: true},
			{name: "idx", typ: scop.I32, extent: []string{"N + 2"}, in: true},
		},
	}
	iters := []string{"i", "j"}
	var loops []string // bounds of the enclosing loops of the previous statement
	var pos []int      // its schedule positions per level
	for k := range 2 + r.IntN(4) {
		depth := r.IntN(3)
		shared := 0
		if k > 0 {
			shared = r.IntN(min(depth, len(loops)) + 1)
		}
		newPos := append([]int(nil), pos[:shared]...)
		if k > 0 {
			newPos = append(newPos, pos[shared]+1)
		} else {
			newPos = append(newPos, 0)
		}
		newLoops := append([]string(nil), loops[:shared]...)
		for l := shared; l < depth; l++ {
			newLoops = append(newLoops, randomBound(r, l, iters))
			newPos = append(newPos, 0)
		}
		loops, pos = newLoops, newPos
		its := iters[:depth]
		name := fmt.Sprintf("S%d", k)
		sched := make([]string, 5)
		for l := range sched {
			sched[l] = "0"
		}
		for l := 0; l <= depth; l++ {
			sched[2*l] = strconv.Itoa(pos[l])
			if l < depth {
				sched[2*l+1] = its[l]
			}
		}
		dom := fmt.Sprintf("[N] -> { %s[%s] }", name, strings.Join(its, ", "))
		if depth > 0 {
			dom = fmt.Sprintf("[N] -> { %s[%s] : %s }", name, strings.Join(its, ", "), strings.Join(loops, " and "))
		}
		s := stm{name: name, domain: dom,
			sched: fmt.Sprintf("{ %s[%s] -> [%s] }", name, strings.Join(its, ", "), strings.Join(sched, ", ")),
			write: randomRef(r, its, true)}
		for range 1 + r.IntN(3) {
			s.reads = append(s.reads, randomRef(r, its, false))
		}
		d.stmts = append(d.stmts, s)
	}
	return d
}

func randomBound(r *rand.Rand, level int, iters []string) string {
	v := iters[level]
	opts := []string{"0 <= %[1]s < N", "0 <= %[1]s <= 3", "1 <= %[1]s < N - 1"}
	if level > 0 {
		opts = append(opts, "%[2]s <= %[1]s < N", "0 <= %[1]s <= %[2]s")
	}
	outer := ""
	if level > 0 {
		outer = iters[level-1]
	}
	return fmt.Sprintf(opts[r.IntN(len(opts))], v, outer)
}

// randomRef picks an array and subscripts; one in six writes (and one in
// ten reads) has a data-dependent subscript.
func randomRef(r *rand.Rand, its []string, write bool) string {
	dd := (write && r.IntN(6) == 0) || (!write && r.IntN(10) == 0)
	switch r.IntN(3) {
	case 0:
		return "s[]"
	case 1:
		if dd {
			return fmt.Sprintf("A[@idx[%s]]", randomSub(r, its))
		}
		return fmt.Sprintf("A[%s]", randomSub(r, its))
	}
	first := randomSub(r, its)
	if dd {
		first = fmt.Sprintf("@idx[%s]", randomSub(r, its))
	}
	return fmt.Sprintf("B[%s, %s]", first, randomSub(r, its))
}

// randomSub is a small affine subscript over the iterators and N.
func randomSub(r *rand.Rand, its []string) string {
	if len(its) == 0 || r.IntN(5) == 0 {
		return []string{"0", "1", "N - 1"}[r.IntN(3)]
	}
	v := its[r.IntN(len(its))]
	switch r.IntN(6) {
	case 0:
		return v + " + 1"
	case 1:
		return v + " - 1"
	case 2:
		return "2*" + v
	case 3:
		if len(its) == 2 {
			return its[0] + " + " + its[1]
		}
		return "N - " + v
	}
	return v
}
