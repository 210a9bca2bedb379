//go:build isl && cgo

package deps

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/calc"
	"github.com/tilefuse/tilefuse/scop"
)

// agreeFlow runs the same dataflow question through ComputeFlow and isl
// and reports the first relation on which they differ.
func agreeFlow(sink, must, may, sched presburger.UnionMap) error {
	want, err := islref.ComputeFlow(sink.String(), must.String(), may.String(), sched.String())
	if err != nil {
		return fmt.Errorf("isl: %w", err)
	}
	got, err := ComputeFlow(sink, must, may, sched)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		got  presburger.UnionMap
		want string
	}{
		{"must dependence", got.Must, want.MustDep},
		{"may dependence", got.May, want.MayDep},
		{"must no source", got.MustNoSource, want.MustNoSource},
		{"may no source", got.MayNoSource, want.MayNoSource},
	} {
		if err := agree(c.name, c.got, c.want); err != nil {
			return err
		}
	}
	return nil
}

// agree compares a relation with isl's text, isl judging equality.
func agree(name string, got presburger.UnionMap, want string) error {
	eq, err := islref.Equal(calc.MapKind, got.String(), want)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !eq {
		return fmt.Errorf("%s:\n got %s\nisl %s", name, got, want)
	}
	return nil
}

// agreeProgram checks p's dataflow, with may-sources given both as the
// inexact writes only and as all writes (as pet and PPCG pass them), and
// its memory-based dependences, which isl gives as the may-dependences
// of a flow with may-sources only.
func agreeProgram(p *scop.Program) error {
	var e errs
	sched := e.um(p.Schedule())
	reads := e.um(p.ReadRelation())
	must := e.um(p.MustWriteRelation())
	all := e.um(p.MayWriteRelation())
	mayOnly := e.um(all.Subtract(must))
	if e.err != nil {
		return e.err
	}
	if err := agreeFlow(reads, must, mayOnly, sched); err != nil {
		return fmt.Errorf("dataflow: %w", err)
	}
	if err := agreeFlow(reads, must, all, sched); err != nil {
		return fmt.Errorf("dataflow, all writes as may-sources: %w", err)
	}
	if err := agreeLastWrites(p, must, mayOnly, sched); err != nil {
		return fmt.Errorf("last writes: %w", err)
	}
	empty := e.um(must.Subtract(must))
	g, err := Memory(p)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		kind       Kind
		sink, srcs presburger.UnionMap
	}{{RAW, reads, all}, {WAR, all, reads}, {WAW, all, all}} {
		want, err := islref.ComputeFlow(c.sink.String(), empty.String(), c.srcs.String(), sched.String())
		if err != nil {
			return fmt.Errorf("isl %s: %w", c.kind, err)
		}
		if err := agree(c.kind.String(), g.Of(c.kind), want.MayDep); err != nil {
			return err
		}
	}
	return nil
}

func TestHandBuiltAgreeWithISL(t *testing.T) {
	for _, d := range []prog{jacobi1d, sum, histogram, blur2, stencil3} {
		t.Run(d.name, func(t *testing.T) {
			if err := agreeProgram(d.build(t)); err != nil {
				t.Error(err)
			}
		})
	}
}

// agreeLastWrites compares LastWrites with isl's dataflow to one sink per
// array, end_A[a] reading A[a], scheduled after the whole program.
func agreeLastWrites(p *scop.Program, must, may, sched presburger.UnionMap) error {
	f, err := ComputeFlow(must, must, may, sched) // any sink: only the sources matter
	if err != nil {
		return err
	}
	lw, err := f.LastWrites()
	if err != nil {
		return err
	}
	dims := sched.Maps()[0].Space().NOut()
	endTime := "[1000" + strings.Repeat(", 0", dims-1) + "]"
	var sinks, endSched, rename []string
	for _, a := range p.Arrays {
		vars := make([]string, a.Rank())
		for i := range vars {
			vars[i] = fmt.Sprintf("a%d", i)
		}
		v := strings.Join(vars, ", ")
		sinks = append(sinks, fmt.Sprintf("end_%s[%s] -> %s[%s]", a.Name, v, a.Name, v))
		endSched = append(endSched, fmt.Sprintf("end_%s[%s] -> %s", a.Name, v, endTime))
		rename = append(rename, fmt.Sprintf("%s[%s] -> end_%s[%s]", a.Name, v, a.Name, v))
	}
	var e errs
	sink := e.um(presburger.ParseUnionMap("{ " + strings.Join(sinks, "; ") + " }"))
	all := e.um(sched.Union(e.um(presburger.ParseUnionMap("{ " + strings.Join(endSched, "; ") + " }"))))
	toEnd := e.um(presburger.ParseUnionMap("{ " + strings.Join(rename, "; ") + " }"))
	gotMust := e.um(lw.Must.ApplyRange(toEnd))
	gotMay := e.um(lw.May.ApplyRange(toEnd))
	if e.err != nil {
		return e.err
	}
	want, err := islref.ComputeFlow(sink.String(), must.String(), may.String(), all.String())
	if err != nil {
		return fmt.Errorf("isl: %w", err)
	}
	if err := agree("must", gotMust, want.MustDep); err != nil {
		return err
	}
	return agree("may", gotMay, want.MayDep)
}
