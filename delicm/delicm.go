package delicm

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Mapping is one family of a scalar's accesses mapped onto an element.
type Mapping struct {
	// Scalar is the temporary scalar; Element where its values now live,
	// as the final statement Final stores them ("A[i][j]").
	Scalar, Element, Final string
	// Stmts are the statements whose accesses to Scalar became accesses
	// to Element, in program order (Final among them); Removed those of
	// them left copying an element onto itself, deleted.
	Stmts, Removed []string
}

// String says what was mapped: "w -> A[i][j] in S0, S1, S2 (S0 removed)".
func (m Mapping) String() string {
	s := fmt.Sprintf("%s -> %s in %s", m.Scalar, m.Element, strings.Join(m.Stmts, ", "))
	if len(m.Removed) > 0 {
		s += " (" + strings.Join(m.Removed, ", ") + " removed)"
	}
	return s
}

// Program maps the temporary scalars of p onto array elements where the
// dataflow allows it (see the package documentation). It returns p itself
// and no mappings when nothing is mapped.
func Program(p *scop.Program) (*scop.Program, []Mapping, error) {
	if !slices.ContainsFunc(p.Arrays, candidate) {
		return p, nil, nil
	}
	flow, err := deps.Dataflow(p)
	if err != nil {
		return p, nil, skipBudget(err)
	}
	cur := p
	var done []Mapping
	for _, a := range p.Arrays {
		if !candidate(a) {
			continue
		}
		fams, err := families(cur, flow, a.Name)
		if errors.Is(err, presburger.ErrBudget) {
			continue // this scalar stays; the mappings made so far hold
		}
		if err != nil {
			return p, nil, err
		}
		for _, fam := range fams {
			q, qflow, m, err := tryFamily(cur, flow, a, fam)
			if err != nil {
				if errors.Is(err, presburger.ErrBudget) {
					continue
				}
				return p, nil, err
			}
			if q != nil {
				cur, flow = q, qflow
				done = append(done, m)
			}
		}
	}
	if len(done) == 0 {
		return p, nil, nil
	}
	q, err := tidy(cur, done)
	if err != nil {
		return p, nil, fmt.Errorf("delicm: %w", err)
	}
	return q, done, nil
}

// candidate reports whether a is a temporary scalar.
func candidate(a *scop.Array) bool { return a.Rank() == 0 && !a.LiveIn && !a.LiveOut }

// skipBudget turns an exhausted operation budget into no mapping at all.
func skipBudget(err error) error {
	if errors.Is(err, presburger.ErrBudget) {
		return nil
	}
	return err
}

// families lists, per statement that reads scalar w without writing it,
// that statement (first) and the statements whose writes of w reach it,
// by name.
func families(p *scop.Program, flow *deps.Flow, w string) ([][]string, error) {
	var out [][]string
	for _, f := range p.Stmts {
		if !readsArray(f, w) || f.Write.Array == w {
			continue
		}
		fam := []*scop.Stmt{f}
		for k := 0; k < len(fam); k++ {
			srcs, err := sourcesOf(p, flow, fam[k], w)
			if err != nil {
				return nil, err
			}
			for _, s := range srcs {
				if !slices.Contains(fam, s) {
					fam = append(fam, s)
				}
			}
		}
		names := make([]string, len(fam))
		for i, st := range fam {
			names[i] = st.Name
		}
		out = append(out, names)
	}
	return out, nil
}

// sourcesOf lists the statements whose writes of w the reads of w in s
// may see.
func sourcesOf(p *scop.Program, flow *deps.Flow, s *scop.Stmt, w string) ([]*scop.Stmt, error) {
	reads, err := readRelation(s, w)
	if err != nil || reads == nil {
		return nil, err
	}
	keys, err := reads.Wrap()
	if err != nil {
		return nil, err
	}
	from, err := flow.MayFrom.IntersectDomain(keys)
	if err != nil {
		return nil, err
	}
	rng, err := from.Range()
	if err != nil {
		return nil, err
	}
	var out []*scop.Stmt
	for _, set := range rng.Sets() {
		if st := p.Stmt(set.Space().Out.Name); st != nil {
			out = append(out, st)
		}
	}
	return out, nil
}

// readRelation is the union of s's read relations of array a (nil when
// s does not read a).
func readRelation(s *scop.Stmt, a string) (*presburger.UnionMap, error) {
	var maps []presburger.Map
	for _, r := range s.Reads {
		if r.Array == a {
			maps = append(maps, r.Rel)
		}
	}
	if len(maps) == 0 {
		return nil, nil
	}
	u, err := presburger.UnionMapFromMaps(maps...)
	return &u, err
}

// readsArray reports whether s's value reads array a.
func readsArray(s *scop.Stmt, a string) bool {
	return slices.ContainsFunc(scop.Reads(s.Value), func(r *scop.Read) bool { return r.Array == a })
}

// tryFamily renames the accesses to scalar w in fam (its final statement
// first) to the element the final statement stores, and returns the
// renamed program and its dataflow when the check passes (nil
// otherwise).
func tryFamily(p *scop.Program, flow *deps.Flow, w *scop.Array, names []string) (*scop.Program, *deps.Flow, Mapping, error) {
	fam := make([]*scop.Stmt, len(names))
	for i, n := range names {
		if fam[i] = p.Stmt(n); fam[i] == nil {
			return nil, nil, Mapping{}, nil
		}
	}
	final := fam[0]
	target := final.Write
	arr := p.Array(target.Array)
	if final.MayWrite || arr == nil || arr.Type != w.Type || !shared(target, fam) {
		return nil, nil, Mapping{}, nil
	}
	q := *p
	q.Stmts = make([]*scop.Stmt, len(p.Stmts))
	var renamed []string
	for i, s := range p.Stmts {
		if !slices.Contains(fam, s) {
			c := *s // Finish derives the accesses anew, in place
			q.Stmts[i] = &c
			continue
		}
		q.Stmts[i] = rename(s, w.Name, target)
		renamed = append(renamed, s.Name)
	}
	if err := q.Finish(); err != nil {
		// Another statement still reads w, which nothing writes now.
		return nil, nil, Mapping{}, nil
	}
	qflow, err := deps.Dataflow(&q)
	if err != nil {
		return nil, nil, Mapping{}, err
	}
	same, err := sameDataflow(p, &q, flow, qflow, w.Name, renamed)
	if err != nil || !same {
		return nil, nil, Mapping{}, err
	}
	return &q, qflow, Mapping{Scalar: w.Name, Element: target.String(), Final: final.Name, Stmts: renamed}, nil
}

// shared reports whether the subscripts of target, affine without
// reads, name only iterators every statement of fam has.
func shared(target scop.Ref, fam []*scop.Stmt) bool {
	for _, x := range target.Index {
		if len(scop.Reads(x)) > 0 {
			return false
		}
		ok := true
		scop.Walk(x, func(e scop.Expr) bool {
			if it, is := e.(*scop.Iter); is {
				for _, s := range fam {
					ok = ok && it.Index < len(s.Iters)
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// rename returns a copy of s with every access to scalar w made an
// access to target (the final statement's reference, its iterators
// taken positionally from s's).
func rename(s *scop.Stmt, w string, target scop.Ref) *scop.Stmt {
	ref := scop.Ref{Array: target.Array, Index: make([]scop.Expr, len(target.Index))}
	for k, x := range target.Index {
		ref.Index[k] = scop.Rewrite(x, func(e scop.Expr) scop.Expr {
			if it, ok := e.(*scop.Iter); ok {
				c := *it
				c.Name = s.Iters[it.Index]
				return &c
			}
			return nil
		})
	}
	c := *s
	if c.Write.Array == w {
		c.Write = ref
	}
	c.Value = scop.Rewrite(s.Value, func(e scop.Expr) scop.Expr {
		if r, ok := e.(*scop.Read); ok && r.Array == w {
			n := *r
			n.Ref = ref
			return &n
		}
		return nil
	})
	return &c
}

// tidy deletes the mapped statements left copying an element onto itself
// (their value is a read of the element they write), and the scalars
// nothing accesses any more, recording the deletions in done.
func tidy(p *scop.Program, done []Mapping) (*scop.Program, error) {
	q := *p
	q.Stmts = nil
	for _, s := range p.Stmts {
		if r, ok := s.Value.(*scop.Read); ok && r.Ref.String() == s.Write.String() {
			if i := slices.IndexFunc(done, func(m Mapping) bool { return slices.Contains(m.Stmts, s.Name) }); i >= 0 {
				done[i].Removed = append(done[i].Removed, s.Name)
				continue
			}
		}
		c := *s
		q.Stmts = append(q.Stmts, &c)
	}
	used := map[string]bool{}
	for _, s := range q.Stmts {
		used[s.Write.Array] = true
		for _, r := range s.Reads {
			used[r.Array] = true
		}
	}
	q.Arrays = nil
	for _, a := range p.Arrays {
		if used[a.Name] || slices.Contains(p.Args, a.Name) || !slices.ContainsFunc(done, func(m Mapping) bool { return m.Scalar == a.Name }) {
			q.Arrays = append(q.Arrays, a)
		}
	}
	if err := q.Finish(); err != nil {
		return nil, err
	}
	return &q, nil
}
