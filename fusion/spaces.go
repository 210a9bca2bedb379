package fusion

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Space is one computation space of the conservative tree (a child of its
// outermost sequence) and what post-tiling fusion decided for it.
type Space struct {
	// Index is the position in the outer sequence; Stmts the statements.
	Index int
	Stmts []string
	// Writes and Reads are the arrays the space writes and reads.
	Writes, Reads []string
	// LiveOut: the space writes an array that lives after the program.
	LiveOut bool
	// Coincident is n, the number of leading coincident members of the
	// space's band (0 without a band).
	Coincident int
	// Tiled: the space keeps its own tile band (a live-out, or an
	// intermediate that could not be fused), with TileBand the path of
	// its tile band in the result.
	Tiled    bool
	TileBand scheduletree.Path
	// FusedInto lists the indices of the tiled spaces whose tiles compute
	// this space's instances (empty when the space is tiled itself), with
	// Extension[k] the map from the tile coordinates of FusedInto[k] to
	// the instances it computes.
	FusedInto []int
	Extension []presburger.UnionMap
	// Dead: no other space reads the space's values and none lives after
	// the program; its subtree is hidden and it never runs.
	Dead bool
	// Reason says why a space that is not live-out was not fused.
	Reason string
	// Recompute is the largest recomputation estimated for the space's
	// extensions (see Options.MaxRecompute); 0 when none was made.
	Recompute float64

	filter presburger.UnionSet
	// subtree is the original child of the space's filter.
	subtree *scheduletree.Node
	band    bool // subtree is a band
	domain  presburger.UnionSet
	// consumers lists the later spaces that read values this one writes
	// (by the value-based flow).
	consumers []int
	// written and read are the elements the space writes and reads, by
	// array.
	written, read map[string]presburger.Set
}

// Domain returns the space's statement instances.
func (s *Space) Domain() presburger.UnionSet { return s.domain }

// Fused reports whether the space's instances run inside other spaces'
// tiles (its original subtree is hidden).
func (s *Space) Fused() bool { return len(s.FusedInto) > 0 }

// outerSequence returns the path of the outermost sequence node reached
// from the root through context nodes only, if any.
func outerSequence(t scheduletree.Tree) (scheduletree.Path, bool) {
	p := scheduletree.Path{}
	n := t.Root()
	for {
		switch n.Kind() {
		case scheduletree.KindSequence:
			return p, true
		case scheduletree.KindDomain, scheduletree.KindContext:
			p, n = p.Child(0), n.Child(0)
		default:
			return nil, false
		}
	}
}

// spaces reads the computation spaces of the sequence at seq.
func spaces(t scheduletree.Tree, seq scheduletree.Path, p *scop.Program) ([]*Space, error) {
	n, err := t.At(seq)
	if err != nil {
		return nil, err
	}
	dom := t.Domain()
	var out []*Space
	for i := 0; i < n.NumChildren(); i++ {
		f := n.Child(i)
		s := &Space{Index: i, filter: f.Filter(), subtree: f.Child(0), written: map[string]presburger.Set{}, read: map[string]presburger.Set{}}
		if s.domain, err = dom.Intersect(s.filter); err != nil {
			return nil, err
		}
		for _, set := range s.filter.Sets() {
			name := set.Space().Out.Name
			st := p.Stmt(name)
			if st == nil {
				return nil, fmt.Errorf("fusion: the tree schedules %s, which the program does not have", name)
			}
			s.Stmts = append(s.Stmts, name)
			for _, a := range st.Writes {
				s.Writes = appendNew(s.Writes, a.Array)
				if arr := p.Array(a.Array); arr != nil && arr.LiveOut {
					s.LiveOut = true
				}
				if err := addElems(s.written, a); err != nil {
					return nil, err
				}
			}
			for _, a := range st.Reads {
				s.Reads = appendNew(s.Reads, a.Array)
				if err := addElems(s.read, a); err != nil {
					return nil, err
				}
			}
		}
		if s.subtree.Kind() == scheduletree.KindBand {
			s.band = true
			b := s.subtree.Band()
			for _, c := range b.Coincident {
				if !c {
					break
				}
				s.Coincident++
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// addElems adds the elements access a touches to by[a.Array].
func addElems(by map[string]presburger.Set, a scop.Access) error {
	r, err := a.Rel.Range()
	if err != nil {
		return err
	}
	if old, ok := by[a.Array]; ok {
		if r, err = old.Union(r); err != nil {
			return err
		}
	}
	by[a.Array] = r
	return nil
}

// overlap reports whether two element sets of one array share an element.
func overlap(by1, by2 map[string]presburger.Set, array string) (bool, error) {
	a, ok1 := by1[array]
	b, ok2 := by2[array]
	if !ok1 || !ok2 {
		return false, nil
	}
	both, err := a.Intersect(b)
	if err != nil {
		return false, err
	}
	empty, err := both.IsEmpty()
	return !empty, err
}

// linkConsumers records, for each space, the later spaces that read its
// values by the value-based flow (source -> sink instances).
func linkConsumers(sp []*Space, flow presburger.UnionMap) {
	of := map[string]int{}
	for _, s := range sp {
		for _, name := range s.Stmts {
			of[name] = s.Index
		}
	}
	for _, m := range flow.Maps() {
		src, ok1 := of[m.Space().In.Name]
		sink, ok2 := of[m.Space().Out.Name]
		if ok1 && ok2 && sink > src {
			sp[src].consumers = appendNewInt(sp[src].consumers, sink)
		}
	}
	for _, s := range sp {
		slices.Sort(s.consumers)
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func appendNewInt(list []int, v int) []int {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}
