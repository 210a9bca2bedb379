package jscop

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Mapping pairs the statements and arrays of the JSCoPs of one program
// (Polly makes a static control part, a JSCoP file, of each region it
// can model; 2mm's two loop nests are two) with those of a tilefuse
// program of the same code.
type Mapping struct {
	// Parts are the JSCoPs, in the order given to Match.
	Parts   []Part
	Program *scop.Program
	// Arrays maps JSCoP array names (MemRef_A) to the program's (A).
	Arrays map[string]string
}

// Part is one JSCoP of a Mapping.
type Part struct {
	Scop *Scop
	// Groups[i] are the program statements that JSCoP statement i
	// executes, in textual order: one statement, or several when Polly
	// keeps the assignments of one basic block together.
	Groups [][]*scop.Stmt
	// Instances[i][k] maps the instances of JSCoP statement i to those
	// of Groups[i][k] (Polly's loop counters to the C iterators).
	Instances [][]presburger.Map
}

// first is the textual position in p of the part's first statement.
func (pt *Part) first(p *scop.Program) int {
	at := len(p.Stmts)
	for _, g := range pt.Groups {
		at = min(at, slices.Index(p.Stmts, g[0]))
	}
	return at
}

// unnamedParam is how Polly names a parameter it has no name for.
var unnamedParam = regexp.MustCompile(`^p_[0-9]+$`)

// pollyNames is the advice for a JSCoP without value names.
const pollyNames = "export it from IR with value names (clang -fno-discard-value-names, opt -polly-use-llvm-names)"

// Match pairs every statement of the JSCoPs scops with the statements of
// p that write the same elements over the same domain, and checks that
// they read the same arrays as p's. A statement of either side left
// without a partner is an error that names it.
func Match(p *scop.Program, scops ...*Scop) (*Mapping, error) {
	if len(scops) == 0 {
		return nil, fmt.Errorf("no JSCoP to match with %s", p.Name)
	}
	m := &Mapping{Program: p, Arrays: map[string]string{}}
	used := map[*scop.Stmt]bool{}
	for _, s := range scops {
		pt, err := m.matchPart(s, used)
		if err != nil {
			if len(scops) > 1 {
				err = fmt.Errorf("JSCoP %s: %w", s.Name, err)
			}
			return nil, err
		}
		m.Parts = append(m.Parts, pt)
	}
	for _, t := range p.Stmts {
		if !used[t] {
			what := "its write " + t.Write.String()
			if a := p.Array(t.Write.Array); a != nil && a.Rank() == 0 {
				what = "its write of the scalar " + a.Name + ", which Polly keeps in a register,"
			}
			return nil, fmt.Errorf("statement %s of %s (%s = %s): %s is in no JSCoP statement", t.Name, p.Name, t.Write, t.Value, what)
		}
	}
	return m, nil
}

// matchPart matches the statements of one JSCoP with program statements
// not yet used.
func (m *Mapping) matchPart(s *Scop, used map[*scop.Stmt]bool) (Part, error) {
	p := m.Program
	pt := Part{Scop: s}
	for _, name := range s.context.Space().Params {
		if !slices.Contains(p.Params, name) {
			why := pollyNames
			if unnamedParam.MatchString(name) {
				why = "Polly names p_N a parameter that is an LLVM value without a C name: an expression of the C parameters (such as n widened to 64 bits), or any parameter when the IR has no value names (then " + pollyNames + ")"
			}
			return pt, fmt.Errorf("the JSCoP's parameter %s is none of %s's (%s); %s", name, p.Name, strings.Join(p.Params, ", "), why)
		}
	}
	for i := range s.Statements {
		st := &s.Statements[i]
		var group []*scop.Stmt
		convs := map[*scop.Stmt]presburger.Map{}
		for _, a := range st.Accesses {
			arr := m.array(a.rel.Space().Out.Name)
			if a.Kind != "write" || arr == nil {
				continue
			}
			t, conv, err := m.writer(st, a, arr, used)
			if err != nil {
				return pt, err
			}
			used[t] = true
			convs[t] = conv
			group = append(group, t)
		}
		if len(group) == 0 {
			return pt, fmt.Errorf("JSCoP statement %s writes none of %s's arrays (only values Polly keeps in registers: %s); the program has no statement for it", st.Name, p.Name, strings.Join(m.registers(st), ", "))
		}
		slices.SortFunc(group, func(a, b *scop.Stmt) int { return slices.Index(p.Stmts, a) - slices.Index(p.Stmts, b) })
		var inst []presburger.Map
		for _, t := range group {
			inst = append(inst, convs[t])
		}
		if err := m.checkReads(st, group, inst); err != nil {
			return pt, err
		}
		pt.Groups = append(pt.Groups, group)
		pt.Instances = append(pt.Instances, inst)
	}
	return pt, nil
}

// array returns the program array that JSCoP array name stands for:
// the same name, or the name after Polly's MemRef_ prefix.
func (m *Mapping) array(name string) *scop.Array {
	if to, ok := m.Arrays[name]; ok {
		return m.Program.Array(to)
	}
	a := m.Program.Array(name)
	if a == nil {
		if rest, ok := strings.CutPrefix(name, "MemRef_"); ok {
			a = m.Program.Array(rest)
		}
	}
	if a != nil {
		m.Arrays[name] = a.Name
	}
	return a
}

// registers lists the accesses of st to no program array.
func (m *Mapping) registers(st *Statement) []string {
	var out []string
	for _, a := range st.Accesses {
		if name := a.rel.Space().Out.Name; m.array(name) == nil {
			out = append(out, a.Kind+" "+name)
		}
	}
	if len(out) == 0 {
		out = []string{"no accesses"}
	}
	return out
}

// writer finds the unused program statement that writes what access a
// of st writes, over st's domain.
func (m *Mapping) writer(st *Statement, a Access, arr *scop.Array, used map[*scop.Stmt]bool) (*scop.Stmt, presburger.Map, error) {
	var none presburger.Map
	var near []string
	for _, t := range m.Program.Stmts {
		if used[t] || t.Write.Array != arr.Name || t.Domain.Space().Out.Len() != st.domain.Space().Out.Len() {
			continue
		}
		convs, err := instanceMaps(st.Name, t)
		if err != nil {
			return nil, none, err
		}
		why := ""
		for _, conv := range convs {
			ok, reason, err := m.writesAs(st, a, arr, t, conv)
			if err != nil {
				return nil, none, err
			}
			if ok {
				return t, conv, nil
			}
			why = reason
		}
		near = append(near, t.Name+" ("+why+")")
	}
	msg := fmt.Sprintf("JSCoP statement %s writes %s over %s; no statement of %s writes the same", st.Name, a.Relation, st.Domain, m.Program.Name)
	if len(near) > 0 {
		msg += " (" + arr.Name + " is written by " + strings.Join(near, ", ") + ")"
	}
	return nil, none, fmt.Errorf("%s", msg)
}

// instanceMaps are the candidate maps from the instances of JSCoP
// statement name to t's: the same iterators (a file in tilefuse's
// names), then Polly's loop counters counted from 0.
func instanceMaps(name string, t *scop.Stmt) ([]presburger.Map, error) {
	same, err := renaming(name, t.Name, t.Domain.Space().Out.Len())
	if err != nil {
		return nil, err
	}
	polly, err := pollyInstances(name, t)
	if err != nil {
		return nil, err
	}
	return []presburger.Map{same, polly}, nil
}

// writesAs reports whether t, its instances seen through conv, runs over
// st's domain and writes what access a writes; if not, why.
func (m *Mapping) writesAs(st *Statement, a Access, arr *scop.Array, t *scop.Stmt, conv presburger.Map) (bool, string, error) {
	dom, err := st.domain.Apply(conv)
	if err != nil {
		return false, "", err
	}
	same, err := m.equalSets(dom, t.Domain)
	if err != nil || !same {
		return false, "domain " + t.Domain.String(), err
	}
	rel, err := a.rel.ApplyDomain(conv)
	if err == nil {
		rel, err = renameArray(rel, arr.Name)
	}
	if err != nil {
		return false, "", err
	}
	for _, w := range t.Writes {
		if w.Array != arr.Name {
			continue
		}
		if same, err = m.equalMaps(rel, w.Rel, t.Domain); err != nil || same {
			return same, "", err
		}
	}
	return false, "writes " + t.Write.String(), nil
}

// checkReads checks that what st reads of the program's arrays, the
// group reads too, and what the group reads, st reads or the group
// writes (LLVM forwards a value stored in one basic block to its loads).
func (m *Mapping) checkReads(st *Statement, group []*scop.Stmt, inst []presburger.Map) error {
	var polly, ours, written []presburger.Map
	for _, a := range st.Accesses {
		if arr := m.array(a.rel.Space().Out.Name); arr != nil && a.Kind == "read" {
			rel, err := renameArray(a.rel, arr.Name)
			if err != nil {
				return err
			}
			polly = append(polly, rel)
		}
	}
	for i, t := range group {
		back, err := inst[i].Reverse()
		if err != nil {
			return err
		}
		for _, r := range t.Reads {
			rel, err := r.Rel.ApplyDomain(back)
			if err != nil {
				return err
			}
			ours = append(ours, rel)
		}
		for _, w := range t.Writes {
			rel, err := w.Rel.ApplyDomain(back)
			if err != nil {
				return err
			}
			written = append(written, rel)
		}
	}
	pu, err := presburger.UnionMapFromMaps(polly...)
	if err != nil {
		return err
	}
	ou, err := presburger.UnionMapFromMaps(ours...)
	if err != nil {
		return err
	}
	wu, err := presburger.UnionMapFromMaps(written...)
	if err != nil {
		return err
	}
	dom, err := m.withContext(st.domain)
	if err != nil {
		return err
	}
	du, err := presburger.UnionSetFromSets(dom)
	if err != nil {
		return err
	}
	if pu, err = pu.IntersectDomain(du); err != nil {
		return err
	}
	if ou, err = ou.IntersectDomain(du); err != nil {
		return err
	}
	if wu, err = wu.IntersectDomain(du); err != nil {
		return err
	}
	if ok, err := pu.IsSubset(ou); err != nil || !ok {
		if err == nil {
			extra, _ := pu.Subtract(ou)
			err = fmt.Errorf("JSCoP statement %s reads %s, which %s does not", st.Name, extra, names(group))
		}
		return err
	}
	both, err := pu.Union(wu)
	if err != nil {
		return err
	}
	if ok, err := ou.IsSubset(both); err != nil || !ok {
		if err == nil {
			extra, _ := ou.Subtract(both)
			err = fmt.Errorf("%s reads %s, which JSCoP statement %s does not", names(group), extra, st.Name)
		}
		return err
	}
	return nil
}

func names(group []*scop.Stmt) string {
	var out []string
	for _, t := range group {
		out = append(out, t.Name)
	}
	return strings.Join(out, " and ")
}

// renameArray is access relation rel with its range the program's array
// arr.
func renameArray(rel presburger.Map, arr string) (presburger.Map, error) {
	a, err := renaming(rel.Space().Out.Name, arr, rel.Space().Out.Len())
	if err != nil {
		return rel, err
	}
	return rel.ApplyRange(a)
}

// renaming is { from[d...] -> to[d...] }.
func renaming(from, to string, n int) (presburger.Map, error) {
	dims := make([]string, n)
	for i := range dims {
		dims[i] = fmt.Sprintf("d%d", i)
	}
	list := strings.Join(dims, ", ")
	r, err := presburger.ParseMap(fmt.Sprintf("{ %s[%s] -> %s[%s] }", from, list, to, list))
	if err != nil {
		return r, fmt.Errorf("renaming %s to %s: %v", from, to, err)
	}
	return r, nil
}

// withContext is s where the program's context holds.
func (m *Mapping) withContext(s presburger.Set) (presburger.Set, error) {
	ctx, err := m.Program.Context.InSpace(s.Space())
	if err != nil {
		return s, err
	}
	return s.Intersect(ctx)
}

// equalSets compares a and b where the program's context holds (Polly's
// context is only the range of int).
func (m *Mapping) equalSets(a, b presburger.Set) (bool, error) {
	a, err := m.withContext(a)
	if err != nil {
		return false, err
	}
	if b, err = m.withContext(b); err != nil {
		return false, err
	}
	return a.IsEqual(b)
}

// equalMaps compares a and b on dom where the program's context holds.
func (m *Mapping) equalMaps(a, b presburger.Map, dom presburger.Set) (bool, error) {
	dom, err := m.withContext(dom)
	if err != nil {
		return false, err
	}
	if a, err = a.IntersectDomain(dom); err != nil {
		return false, err
	}
	if b, err = b.IntersectDomain(dom); err != nil {
		return false, err
	}
	return a.IsEqual(b)
}
