//go:build isl && cgo

package presburger_test

import (
	"math"
	"sort"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/internal/corpus"
)

// tilefuseOp returns a closure running op on the corpus case with tilefuse.
func tilefuseOp(b *testing.B, op islref.Op, c corpus.Case) func() {
	sa, err := presburger.ParseSet(c.A)
	if err != nil {
		b.Fatal(err)
	}
	sb, err := presburger.ParseSet(c.B)
	if err != nil {
		b.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	switch op {
	case islref.OpParse:
		return func() { _, err := presburger.ParseSet(c.A); must(err) }
	case islref.OpIntersect:
		return func() { _, err := sa.Intersect(sb); must(err) }
	case islref.OpSubtract:
		return func() { _, err := sa.Subtract(sb); must(err) }
	case islref.OpIsEmpty:
		return func() {
			x, err := sa.Intersect(sb)
			must(err)
			_, err = x.IsEmpty()
			must(err)
		}
	default:
		return func() {
			_, err := sa.ProjectOut(sa.Space().NOut()-c.Project, c.Project)
			must(err)
		}
	}
}

func timeGo(f func(), n int) time.Duration {
	start := time.Now()
	for i := 0; i < n; i++ {
		f()
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkVsISL times every operation of the corpus with tilefuse and isl
// side by side (alternating rounds, median of 5) and reports the ratio
// isl-time / tilefuse-time per operation (>1: tilefuse is faster) as the
// geometric mean over the corpus. Run with:
//
//	go test -tags isl -run XXX -bench VsISL ./presburger
func BenchmarkVsISL(b *testing.B) {
	ops := []struct {
		name string
		op   islref.Op
	}{{"parse", islref.OpParse}, {"intersect", islref.OpIntersect}, {"subtract", islref.OpSubtract}, {"is_empty", islref.OpIsEmpty}, {"project_out", islref.OpProject}}
	for _, o := range ops {
		b.Run(o.name, func(b *testing.B) {
			logSum := 0.0
			for b.Loop() {
				logSum = 0
				for _, c := range corpus.Cases {
					f := tilefuseOp(b, o.op, c)
					var tg, ti []float64
					for round := 0; round < 5; round++ {
						tg = append(tg, float64(timeGo(f, 50)))
						d, err := islref.TimeOp(o.op, c.A, c.B, c.Project, 50)
						if err != nil {
							b.Fatal(err)
						}
						ti = append(ti, float64(d))
					}
					g, i := median(tg), median(ti)
					b.Logf("%-12s %-20s tilefuse %9.0f ns  isl %9.0f ns  isl/tilefuse %.2f", o.name, c.Name, g, i, i/g)
					logSum += math.Log(i / g)
				}
			}
			b.ReportMetric(math.Exp(logSum/float64(len(corpus.Cases))), "isl/tilefuse")
		})
	}
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}
