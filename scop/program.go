package scop

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// Program is a static control part: the unit every stage works on.
type Program struct {
	Name string
	// Params are the integer size parameters, in the order every
	// presburger object of the program lists them.
	Params []string
	// Context is the parameter set the program is defined for.
	Context presburger.Set
	Arrays  []*Array
	// Stmts are in textual order; program order is given by their
	// schedules.
	Stmts []*Stmt
	// Args is the calling convention of the compiled program: the names
	// of its parameters and arrays in argument order (for C, the
	// function's signature). Empty means Params, then the live-in and
	// live-out arrays in declaration order.
	Args []string
	// Calls is the pipeline's Halide-style call schedule (the Go
	// DSL's), or nil.
	Calls *CallSchedule
}

// ArgNames returns Args, or the default order when Args is empty.
func (p *Program) ArgNames() []string {
	if len(p.Args) > 0 {
		return p.Args
	}
	out := append([]string(nil), p.Params...)
	for _, a := range p.Arrays {
		if a.LiveIn || a.LiveOut {
			out = append(out, a.Name)
		}
	}
	return out
}

// Array is an array or, with no extents, a scalar.
type Array struct {
	Name string
	Type ElemType
	// Extent holds one size per dimension, an integer expression of
	// constants and parameters.
	Extent []Expr
	// LiveIn arrays hold values from before the program; LiveOut arrays
	// are visible after it. Arrays that are neither are temporaries.
	LiveIn, LiveOut bool
	At              Pos
}

// Rank is the number of dimensions.
func (a *Array) Rank() int { return len(a.Extent) }

// Shape evaluates the extents at the given parameter values.
func (a *Array) Shape(params map[string]int64) ([]int64, error) {
	shape := make([]int64, len(a.Extent))
	for i, e := range a.Extent {
		v, err := EvalAffine(e, params)
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, Errorf(a.At, "array %s has negative extent %d in dimension %d", a.Name, v, i)
		}
		shape[i] = v
	}
	return shape, nil
}

// Buffer returns a zeroed buffer of the array's type and shape at
// params.
func (a *Array) Buffer(params map[string]int64) (*Buffer, error) {
	shape, err := a.Shape(params)
	if err != nil {
		return nil, err
	}
	b, err := NewBuffer(a.Type, shape)
	if err != nil {
		return nil, fmt.Errorf("array %s: %v", a.Name, err)
	}
	return b, nil
}

// Stmt is one assignment Write = Value, executed for every point of
// Domain in the order of Schedule.
type Stmt struct {
	Name string
	// Iters name the domain's dimensions; Iter nodes index into them.
	Iters []string
	// Domain is a set in space Name[Iters...] over the program's
	// parameters.
	Domain presburger.Set
	// Schedule maps Domain into the program's time space; all statements
	// of a program share its dimension.
	Schedule presburger.Map
	Write    Ref
	Value    Expr
	// MayWrite marks a data-dependent write subscript (a histogram, say):
	// the statement may write any element of the array.
	MayWrite bool
	At       Pos

	// Reads and Writes are the access relations, derived by Finish.
	Reads, Writes []Access
}

// Times is the set of schedule positions the statement's instances run
// at: its schedule applied to its domain.
func (s *Stmt) Times() (presburger.Set, error) {
	m, err := s.Schedule.IntersectDomain(s.Domain)
	if err != nil {
		return presburger.Set{}, err
	}
	return m.Range()
}

// Access is an access relation from a statement's domain to an array's
// elements. May marks an over-approximation: a data-dependent subscript.
type Access struct {
	Array string
	Rel   presburger.Map
	May   bool
}

// Array returns the array called name, or nil.
func (p *Program) Array(name string) *Array {
	for _, a := range p.Arrays {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Stmt returns the statement called name, or nil.
func (p *Program) Stmt(name string) *Stmt {
	for _, s := range p.Stmts {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Domains is the union of the statements' domains.
func (p *Program) Domains() (presburger.UnionSet, error) {
	sets := make([]presburger.Set, len(p.Stmts))
	for i, s := range p.Stmts {
		sets[i] = s.Domain
	}
	return presburger.UnionSetFromSets(sets...)
}

// Schedule is the union of the statements' original schedules.
func (p *Program) Schedule() (presburger.UnionMap, error) {
	maps := make([]presburger.Map, len(p.Stmts))
	for i, s := range p.Stmts {
		maps[i] = s.Schedule
	}
	return presburger.UnionMapFromMaps(maps...)
}

// ReadRelation is the union of all read accesses.
func (p *Program) ReadRelation() (presburger.UnionMap, error) {
	return p.accesses(func(s *Stmt) []Access { return s.Reads }, true)
}

// MayWriteRelation is the union of all writes, exact or not.
func (p *Program) MayWriteRelation() (presburger.UnionMap, error) {
	return p.accesses(func(s *Stmt) []Access { return s.Writes }, true)
}

// MustWriteRelation is the union of the exact writes.
func (p *Program) MustWriteRelation() (presburger.UnionMap, error) {
	return p.accesses(func(s *Stmt) []Access { return s.Writes }, false)
}

func (p *Program) accesses(of func(*Stmt) []Access, may bool) (presburger.UnionMap, error) {
	var maps []presburger.Map
	for _, s := range p.Stmts {
		for _, a := range of(s) {
			if may || !a.May {
				maps = append(maps, a.Rel)
			}
		}
	}
	return presburger.UnionMapFromMaps(maps...)
}

// ParamSpace is the space of the program's parameter sets.
func (p *Program) ParamSpace() presburger.Space { return presburger.ParamSpace(p.Params) }

// CheckParams reports whether values gives every parameter a value that
// satisfies the context.
func (p *Program) CheckParams(values map[string]int64) error {
	pt := make([]int64, len(p.Params))
	for i, name := range p.Params {
		v, ok := values[name]
		if !ok {
			return Errorf(Pos{}, "no value for parameter %s", name)
		}
		pt[i] = v
	}
	ok, err := p.Context.Contains(pt)
	if err != nil {
		return err
	}
	if !ok {
		return Errorf(Pos{}, "parameter values %v lie outside the context %s", values, p.Context)
	}
	return nil
}
