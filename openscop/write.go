package openscop

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Write is p in OpenScop with the scattering sched of each statement (a
// map from its domain), or its original schedule where sched has none.
func Write(p *scop.Program, sched presburger.UnionMap) (string, error) {
	byName := map[string]presburger.Map{}
	for _, m := range sched.Maps() {
		byName[m.Space().In.Name] = m
	}
	ids := map[string]int{}
	var arrays []string
	for _, a := range p.Arrays {
		arrays = append(arrays, a.Name)
		ids[a.Name] = len(arrays)
	}
	var b strings.Builder
	b.WriteString("<OpenScop>\n\n# =============================================== Global\n# Language\nC\n\n# Context\n")
	if err := writeSet(&b, "CONTEXT", p.Context); err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "\n# Parameters are provided\n1\n<strings>\n%s\n</strings>\n", strings.Join(p.Params, " "))
	fmt.Fprintf(&b, "\n# Number of statements\n%d\n", len(p.Stmts))
	for i, t := range p.Stmts {
		s, ok := byName[t.Name]
		if !ok {
			s = t.Schedule
		}
		fmt.Fprintf(&b, "\n# =============================================== Statement %d (%s)\n", i+1, t.Name)
		fmt.Fprintf(&b, "# Number of relations describing the statement\n%d\n", 2+len(t.Reads)+len(t.Writes))
		if err := writeSet(&b, "DOMAIN", t.Domain); err != nil {
			return "", err
		}
		if err := writeMap(&b, "SCATTERING", s); err != nil {
			return "", err
		}
		for _, kind := range []struct {
			name string
			acc  []scop.Access
		}{{"READ", t.Reads}, {"WRITE", t.Writes}} {
			for _, a := range kind.acc {
				typ := kind.name
				if a.May && typ == "WRITE" {
					typ = "MAY_WRITE"
				}
				rel, err := numbered(a.Rel, ids[a.Array])
				if err != nil {
					return "", err
				}
				if err := writeMap(&b, typ, rel); err != nil {
					return "", err
				}
			}
		}
		fmt.Fprintf(&b, "\n# Statement body is provided\n1\n<body>\n# Number of original iterators\n%d\n# List of original iterators\n%s\n# Statement body expression\n%s = %s;\n</body>\n",
			len(t.Iters), strings.Join(t.Iters, " "), t.Write, t.Value)
	}
	b.WriteString("\n<arrays>\n# Number of arrays\n")
	fmt.Fprintf(&b, "%d\n# Mapping array-identifiers/array-names\n", len(arrays))
	for i, a := range arrays {
		fmt.Fprintf(&b, "%d %s\n", i+1, a)
	}
	b.WriteString("</arrays>\n\n</OpenScop>\n")
	return b.String(), nil
}

// numbered is access relation rel with the array's number id as a first
// output dimension.
func numbered(rel presburger.Map, id int) (presburger.Map, error) {
	rel, err := rel.InsertDims(presburger.DimOut, 0, 1)
	if err != nil {
		return rel, err
	}
	return rel.FixDim(presburger.DimOut, 0, int64(id))
}

func writeSet(b *strings.Builder, typ string, s presburger.Set) error {
	return writeParts(b, typ, s.Constraints())
}

func writeMap(b *strings.Builder, typ string, m presburger.Map) error {
	return writeParts(b, typ, m.Constraints())
}

// writeParts writes the basic relations cs, a union when there are
// several (an empty one: a union of no parts).
func writeParts(b *strings.Builder, typ string, cs []presburger.Constraints) error {
	if len(cs) != 1 {
		fmt.Fprintf(b, "# Union with %d parts\n%d\n", len(cs), len(cs))
	}
	for _, c := range cs {
		fmt.Fprintf(b, "%s\n%d %d %d %d %d %d\n", typ, len(c.Eqs)+len(c.Ineqs), 2+c.NOut+c.NIn+c.NLocal+c.NParam, c.NOut, c.NIn, c.NLocal, c.NParam)
		for _, r := range c.Eqs {
			writeRow(b, 0, r, c)
		}
		for _, r := range c.Ineqs {
			writeRow(b, 1, r, c)
		}
	}
	return nil
}

// writeRow reorders a row [1, params, in, out, locals] into OpenScop's
// [e/i, out, in, locals, params, 1].
func writeRow(b *strings.Builder, flag int, r []int64, c presburger.Constraints) {
	np, ni, no := c.NParam, c.NIn, c.NOut
	cols := []int64{int64(flag)}
	cols = append(cols, r[1+np+ni:1+np+ni+no]...)
	cols = append(cols, r[1+np:1+np+ni]...)
	cols = append(cols, r[1+np+ni+no:]...)
	cols = append(cols, r[1:1+np]...)
	cols = append(cols, r[0])
	for i, v := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(b, "%3d", v)
	}
	b.WriteByte('\n')
}

// WriteTree is p in OpenScop with the schedule of tree t as each
// statement's scattering. A tree that is not one schedule map per
// statement (an extension node: post-tiling fusion) cannot be written.
func WriteTree(p *scop.Program, t scheduletree.Tree) (string, error) {
	if err := t.RunsOnce(); err != nil {
		return "", fmt.Errorf("%w: OpenScop holds one scattering per statement, each instance run once", err)
	}
	um, err := t.Map()
	if err != nil {
		return "", err
	}
	have := map[string]bool{}
	for _, m := range um.Maps() {
		have[m.Space().In.Name] = true
	}
	for _, s := range p.Stmts {
		if !have[s.Name] {
			return "", fmt.Errorf("the tree does not schedule statement %s of %s", s.Name, p.Name)
		}
	}
	return Write(p, um)
}
