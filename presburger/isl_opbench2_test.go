//go:build isl && cgo

package presburger_test

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/calc"
	"github.com/tilefuse/tilefuse/presburger/internal/corpus"
)

// bench2Reps is the number of operations timed per round and library.
const bench2Reps = 50

// bench2Case is one corpus case prepared for one operation: the operands
// of each library (for coalesce, (A - B) + B as each library builds it) and
// a description of the results for the log.
type bench2Case struct {
	tfA, islA, b string
	note         string
}

// tfRun2 runs op with tilefuse on a and, for gist, the context b, and
// prints the result.
func tfRun2(op islref.Op2, a, b presburger.Set) (string, int, error) {
	s, pw, err := tfApply2(op, a, b)
	if op == islref.OpDimMax {
		return pw.String(), len(pw.Pieces), err
	}
	return s.String(), s.NumBasic(), err
}

// tfApply2 runs op with tilefuse: the set result, or dim_max's function.
// It does not print, as isl's timed rounds do not (tf2_apply).
func tfApply2(op islref.Op2, a, b presburger.Set) (presburger.Set, presburger.PwMultiAff, error) {
	var r presburger.Set
	var err error
	switch op {
	case islref.OpLexMin:
		r, err = a.LexMin()
	case islref.OpCoalesce:
		r, err = a.Coalesce()
	case islref.OpGist:
		r, err = a.Gist(b)
	default:
		pw, err := a.DimMax(a.Space().NOut() - 1)
		return r, pw, err
	}
	return r, presburger.PwMultiAff{}, err
}

// prepare2 builds the operands of op on c and checks that both libraries
// give the same answer. skip is set where the operation has no answer
// (an unbounded optimum in either library).
func prepare2(op islref.Op2, c corpus.Case) (p bench2Case, skip string, err error) {
	p = bench2Case{tfA: c.A, islA: c.A, b: c.B}
	sa, err := presburger.ParseSet(c.A)
	if err != nil {
		return p, "", err
	}
	sb, err := presburger.ParseSet(c.B)
	if err != nil {
		return p, "", err
	}
	inTF, inISL := sa.NumBasic(), 0
	if op == islref.OpCoalesce {
		d, err := sa.Subtract(sb)
		if err == nil {
			sa, err = d.Union(sb)
		}
		if err != nil {
			return p, "", err
		}
		p.tfA = sa.String()
		if p.islA, inISL, err = islref.SubtractUnion(c.A, c.B); err != nil {
			return p, "", err
		}
		// Time the set as printed and read back, as each round does.
		if sa, err = presburger.ParseSet(p.tfA); err != nil {
			return p, "", err
		}
		inTF = sa.NumBasic()
	}
	got, nTF, tfErr := tfRun2(op, sa, sb)
	want, nISL, islErr := islref.Result2(op, p.islA, p.b)
	if errors.Is(tfErr, presburger.ErrUnbounded) || errors.Is(islErr, islref.ErrUnbounded) {
		return p, fmt.Sprintf("unbounded (tilefuse: %v, isl: %v)", tfErr, islErr), nil
	}
	if tfErr != nil || islErr != nil {
		return p, "", fmt.Errorf("tilefuse: %v, isl: %v", tfErr, islErr)
	}
	if err := check2(op, c, sb, got, want, p.islA); err != nil {
		return p, "", err
	}
	switch op {
	case islref.OpCoalesce:
		p.note = fmt.Sprintf("disjuncts tilefuse %d -> %d, isl %d -> %d", inTF, nTF, inISL, nISL)
	case islref.OpDimMax:
		p.note = fmt.Sprintf("pieces tilefuse %d, isl %d", nTF, nISL)
	default:
		p.note = fmt.Sprintf("disjuncts tilefuse %d, isl %d", nTF, nISL)
	}
	return p, "", nil
}

// check2 checks tilefuse's result got of op on c against isl's want, or
// for coalesce against isl's operand in.
func check2(op islref.Op2, c corpus.Case, sb presburger.Set, got, want, in string) error {
	var eq bool
	var err error
	switch op {
	case islref.OpCoalesce:
		// The operand, not isl's coalesce, is the reference: coalescing
		// must not change the set.
		eq, err = islref.Equal(calc.SetKind, got, in)
	case islref.OpDimMax:
		sa, _ := presburger.ParseSet(c.A)
		_, eq, err = islref.DimOpt(c.A, sa.Space().NOut()-1, true, got)
	case islref.OpGist:
		// Any G with G * B = A * B is a gist of A in B.
		x, err1 := intersectText(got, sb)
		y, err2 := intersectText(c.A, sb)
		if err = errors.Join(err1, err2); err == nil {
			eq, err = islref.Equal(calc.SetKind, x, y)
		}
	default:
		eq, err = islref.Equal(calc.SetKind, got, want)
	}
	if err == nil && !eq {
		err = fmt.Errorf("tilefuse's answer %s differs from isl's %s", got, want)
	}
	return err
}

// intersectText returns the set src intersected with b, printed.
func intersectText(src string, b presburger.Set) (string, error) {
	a, err := presburger.ParseSet(src)
	if err != nil {
		return "", err
	}
	x, err := a.Intersect(b)
	return x.String(), err
}

// timeTF2 times op with tilefuse on n fresh copies of a (and of b for gist),
// read before the clock starts, as TimeOp2 does for isl.
func timeTF2(op islref.Op2, a, b string, n int) (time.Duration, error) {
	as, bs := make([]presburger.Set, n), make([]presburger.Set, n)
	for i := range n {
		var err error
		if as[i], err = presburger.ParseSet(a); err != nil {
			return 0, err
		}
		if bs[i], err = presburger.ParseSet(b); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	for i := range n {
		if _, _, err := tfApply2(op, as[i], bs[i]); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(n), nil
}

// BenchmarkVsISL2 times lexmin, coalesce of (A - B) + B, gist of A in B and
// dim_max of A's last dimension on the corpus with tilefuse and isl side by
// side (alternating rounds, median of 5; each library works on fresh
// operands of its own making and prints nothing while timed) and reports
// the geometric mean of the ratio
// isl-time / tilefuse-time per operation (>1: tilefuse is faster). Each
// answer is first checked against isl's. Run with:
//
//	go test -tags isl -run XXX -bench VsISL2 -benchtime 1x ./presburger
func BenchmarkVsISL2(b *testing.B) {
	ops := []struct {
		name string
		op   islref.Op2
	}{{"lexmin", islref.OpLexMin}, {"coalesce", islref.OpCoalesce}, {"gist", islref.OpGist}, {"dim_max", islref.OpDimMax}}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			logSum, n := 0.0, 0
			for b.Loop() {
				logSum, n = 0, 0
				for _, c := range corpus.Cases {
					p, skip, err := prepare2(o.op, c)
					if err != nil {
						b.Errorf("%s %s: %v", o.name, c.Name, err)
						continue
					}
					if skip != "" {
						b.Logf("%-9s %-20s skipped: %s", o.name, c.Name, skip)
						continue
					}
					var tg, ti []float64
					for range 5 {
						g, err := timeTF2(o.op, p.tfA, p.b, bench2Reps)
						if err != nil {
							b.Fatal(err)
						}
						i, err := islref.TimeOp2(o.op, p.islA, p.b, bench2Reps)
						if err != nil {
							b.Fatal(err)
						}
						tg, ti = append(tg, float64(g)), append(ti, float64(i))
					}
					g, i := median(tg), median(ti)
					b.Logf("%-9s %-20s tilefuse %10.0f ns  isl %10.0f ns  isl/tilefuse %6.2f  %s", o.name, c.Name, g, i, i/g, p.note)
					logSum += math.Log(i / g)
					n++
				}
			}
			if n > 0 {
				b.ReportMetric(math.Exp(logSum/float64(n)), "isl/tilefuse")
			}
		})
	}
}
