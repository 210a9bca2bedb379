package deps

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// TimeDistance returns the distance vectors of d in the time space of the
// original schedule: time(sink) - time(source) over the pairs of d. Every
// vector is lexicographically positive.
func (g *Graph) TimeDistance(d Dep) (presburger.Set, error) {
	var e errs
	src := e.m(g.tl.of(d.Rel.Space().In))
	sink := e.m(g.tl.of(d.Rel.Space().Out))
	t := e.m(e.m(d.Rel.ApplyDomain(src)).ApplyRange(sink))
	return e.s(t.Deltas()), e.err
}

// IterDistance returns the distance vectors of d in iteration space,
// sink - source, when both statements have the same number of
// dimensions (compared position by position); an error otherwise.
func IterDistance(d Dep) (presburger.Set, error) {
	sp := d.Rel.Space()
	if sp.In.Key() == sp.Out.Key() {
		return d.Rel.Deltas()
	}
	n := sp.In.Len()
	if sp.In.Nest != nil || sp.Out.Nest != nil || n != sp.Out.Len() {
		return presburger.Set{}, fmt.Errorf("deps: %s and %s have different dimensions: no iteration distance", d.Source, d.Sink)
	}
	// Rename the source tuple to the sink's, then take deltas.
	vars := make([]string, n)
	for i := range vars {
		vars[i] = fmt.Sprintf("x%d", i)
	}
	list := strings.Join(vars, ", ")
	rename, err := presburger.ParseMap(fmt.Sprintf("{ %s[%s] -> %s[%s] }", sp.In.Name, list, sp.Out.Name, list))
	if err != nil {
		return presburger.Set{}, err
	}
	var e errs
	m := e.m(d.Rel.ApplyDomain(rename))
	return e.s(m.Deltas()), e.err
}
