package jscop

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// llvmTypes are Polly's names of tilefuse's element types.
var llvmTypes = map[scop.ElemType]string{
	scop.Bool: "i1", scop.I8: "i8", scop.U8: "i8", scop.I16: "i16", scop.U16: "i16",
	scop.I32: "i32", scop.U32: "i32", scop.I64: "i64", scop.U64: "i64",
	scop.F32: "float", scop.F64: "double",
}

// FromProgram is the JSCoP of p in tilefuse's names, with the schedule
// sched of each statement (a map from its domain), or its original
// schedule where sched has none.
func FromProgram(p *scop.Program, sched presburger.UnionMap) (*Scop, error) {
	out := &Scop{Name: p.Name, Context: p.Context.String(), context: p.Context}
	for _, a := range p.Arrays {
		if a.Rank() == 0 {
			continue // Polly lists no scalars: it reads them as values
		}
		arr := Array{Name: a.Name, Type: llvmTypes[a.Type]}
		for _, e := range a.Extent {
			arr.Sizes = append(arr.Sizes, e.String())
		}
		out.Arrays = append(out.Arrays, arr)
	}
	byName := map[string]presburger.Map{}
	for _, m := range sched.Maps() {
		byName[m.Space().In.Name] = m
	}
	for _, t := range p.Stmts {
		s, ok := byName[t.Name]
		if !ok {
			s = t.Schedule
		}
		st := Statement{Name: t.Name, Domain: t.Domain.String(), Schedule: s.String(), domain: t.Domain, schedule: s}
		for _, kind := range []struct {
			name string
			acc  []scop.Access
		}{{"read", t.Reads}, {"write", t.Writes}} {
			for _, a := range kind.acc {
				st.Accesses = append(st.Accesses, Access{Kind: kind.name, Relation: a.Rel.String(), rel: a.Rel})
			}
		}
		out.Statements = append(out.Statements, st)
	}
	return out, nil
}

// FromTree is the JSCoP of p in tilefuse's names with the schedules of
// tree t, which must schedule every statement of p, each instance once.
func FromTree(p *scop.Program, t scheduletree.Tree) (*Scop, error) {
	if err := flatTree(t); err != nil {
		return nil, err
	}
	um, err := t.Map()
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for _, m := range um.Maps() {
		have[m.Space().In.Name] = true
	}
	for _, s := range p.Stmts {
		if !have[s.Name] {
			return nil, fmt.Errorf("the tree does not schedule statement %s of %s", s.Name, p.Name)
		}
	}
	return FromProgram(p, um)
}
