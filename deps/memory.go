package deps

import (
	"fmt"
	"sort"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Kind is the kind of a memory-based dependence.
type Kind int

// The kinds, named after the access pair: read after write (flow), write
// after read (anti), write after write (output).
const (
	RAW Kind = iota
	WAR
	WAW
)

func (k Kind) String() string {
	switch k {
	case RAW:
		return "RAW"
	case WAR:
		return "WAR"
	case WAW:
		return "WAW"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Dep is the memory-based dependence of one kind between two statements
// through one array.
type Dep struct {
	Kind         Kind
	Source, Sink string // statement names; Source runs first
	Array        string
	// May is set when either access is a may-access: Rel then
	// over-approximates the pairs that really touch the same element.
	May bool
	// Rel is { Source[i] -> Sink[j] }: both access one element of Array
	// and Source[i] precedes Sink[j] in the original schedule.
	Rel presburger.Map
}

// Graph is the memory-based dependence graph of a program.
type Graph struct {
	// RAW, WAR and WAW are the unions of the Deps of each kind.
	RAW, WAR, WAW presburger.UnionMap
	// Deps lists the non-empty dependences, by kind, source, sink, array.
	Deps []Dep

	tl *timeline
}

// access is all accesses of one statement to one array, of one direction.
type access struct {
	stmt, array string
	rel         presburger.Map
	may         bool
}

// Memory computes the memory-based dependences of p: every pair of
// accesses to one element, at least one of them a write, ordered by the
// original schedule. May-accesses take part with all the elements they
// may touch.
func Memory(p *scop.Program) (*Graph, error) {
	sched, err := p.Schedule()
	if err != nil {
		return nil, err
	}
	tl, err := newTimeline(sched)
	if err != nil {
		return nil, err
	}
	reads, writes, err := groupAccesses(p)
	if err != nil {
		return nil, err
	}
	g := &Graph{tl: tl}
	pairs := []struct {
		kind      Kind
		src, sink []access
	}{
		{RAW, writes, reads},
		{WAR, reads, writes},
		{WAW, writes, writes},
	}
	for _, pr := range pairs {
		err := overlapping(pr.src, pr.sink, func(i, j int) error {
			d, err := g.dependence(pr.kind, pr.src[i], pr.sink[j])
			if d != nil {
				g.Deps = append(g.Deps, *d)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	sort.SliceStable(g.Deps, func(i, j int) bool { return g.Deps[i].less(g.Deps[j]) })
	return g, g.unions()
}

// dependence relates the instances of a and b that touch one element,
// a first; nil when there are none.
func (g *Graph) dependence(kind Kind, a, b access) (*Dep, error) {
	var e errs
	before := e.m(g.tl.precedes(a.rel.Space().In, b.rel.Space().In))
	conflict := e.m(a.rel.ApplyRange(e.m(b.rel.Reverse())))
	rel := e.m(conflict.Intersect(before))
	if e.empty(rel.IsEmpty()) {
		if e.err != nil {
			return nil, fmt.Errorf("deps: %s %s -> %s on %s: %w", kind, a.stmt, b.stmt, a.array, e.err)
		}
		return nil, nil
	}
	rel = e.m(rel.Coalesce())
	if e.err != nil {
		return nil, fmt.Errorf("deps: %s %s -> %s on %s: %w", kind, a.stmt, b.stmt, a.array, e.err)
	}
	return &Dep{Kind: kind, Source: a.stmt, Sink: b.stmt, Array: a.array, May: a.may || b.may, Rel: rel}, nil
}

func (d Dep) less(o Dep) bool {
	if d.Kind != o.Kind {
		return d.Kind < o.Kind
	}
	if d.Source != o.Source {
		return d.Source < o.Source
	}
	if d.Sink != o.Sink {
		return d.Sink < o.Sink
	}
	return d.Array < o.Array
}

func (g *Graph) unions() error {
	by := map[Kind][]presburger.Map{}
	for _, d := range g.Deps {
		by[d.Kind] = append(by[d.Kind], d.Rel)
	}
	var e errs
	g.RAW = e.um(presburger.UnionMapFromMaps(by[RAW]...))
	g.WAR = e.um(presburger.UnionMapFromMaps(by[WAR]...))
	g.WAW = e.um(presburger.UnionMapFromMaps(by[WAW]...))
	return e.err
}

// Of returns the union of the dependences of kind k.
func (g *Graph) Of(k Kind) presburger.UnionMap {
	switch k {
	case RAW:
		return g.RAW
	case WAR:
		return g.WAR
	}
	return g.WAW
}

// All returns every dependence of every kind: what a schedule must
// respect.
func (g *Graph) All() (presburger.UnionMap, error) {
	var e errs
	all := e.um(g.RAW.Union(g.WAR))
	return e.um(all.Union(g.WAW)), e.err
}

// Between lists the dependences from statement src to statement sink.
func (g *Graph) Between(src, sink string) []Dep {
	var out []Dep
	for _, d := range g.Deps {
		if d.Source == src && d.Sink == sink {
			out = append(out, d)
		}
	}
	return out
}

// groupAccesses unions each statement's reads and writes per array.
func groupAccesses(p *scop.Program) (reads, writes []access, err error) {
	group := func(s *scop.Stmt, accs []scop.Access) ([]access, error) {
		var out []access
		at := map[string]int{}
		for _, a := range accs {
			if i, ok := at[a.Array]; ok {
				u, err := out[i].rel.Union(a.Rel)
				if err != nil {
					return nil, err
				}
				out[i].rel, out[i].may = u, out[i].may || a.May
				continue
			}
			at[a.Array] = len(out)
			out = append(out, access{stmt: s.Name, array: a.Array, rel: a.Rel, may: a.May})
		}
		return out, nil
	}
	for _, s := range p.Stmts {
		r, err := group(s, s.Reads)
		if err != nil {
			return nil, nil, err
		}
		w, err := group(s, s.Writes)
		if err != nil {
			return nil, nil, err
		}
		reads, writes = append(reads, r...), append(writes, w...)
	}
	return reads, writes, nil
}
