package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// NaiveC returns the naive C of p as a function called fn: the AST of
// the original schedule tree (compiler.Compile with strategy none)
// printed as C. It is the baseline peers are compared with and the
// reference for sizes too large for the reference executor.
func NaiveC(p *scop.Program, fn string) (string, error) {
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.None, Stop: compiler.StageAST})
	if err != nil {
		return "", err
	}
	return r.C(fn)
}

// reference computes the arrays the program should produce from in.
func (tc *Toolchain) reference(ctx context.Context, p *scop.Program, params map[string]int64, ref Reference, fn string, in map[string]*scop.Buffer, dir, inFile string) (map[string]*scop.Buffer, error) {
	switch ref {
	case RefExec:
		bufs := map[string]*scop.Buffer{}
		for name, b := range in {
			bufs[name] = b.Clone()
		}
		if err := refexec.Run(p, params, bufs); err != nil {
			return nil, err
		}
		return bufs, nil
	case RefC:
		src, err := NaiveC(p, fn)
		if err != nil {
			return nil, err
		}
		bin := filepath.Join(dir, "reference")
		if _, err := tc.buildHarness(ctx, p, params, Kernel{C: src, Func: fn}, dir, bin); err != nil {
			return nil, err
		}
		_, out, err := tc.execute(ctx, p, in, bin, inFile, filepath.Join(dir, "reference.bin"), 1, 0, 1)
		return out, err
	}
	return nil, fmt.Errorf("runner: no reference %v", ref)
}

// chooseReference resolves RefAuto.
func chooseReference(p *scop.Program, params map[string]int64, limit int64) Reference {
	if limit <= 0 {
		limit = DefaultExecLimit
	}
	for _, s := range p.Stmts {
		// Go's math package and the C library differ in the last bits.
		if scop.CallsLibrary(s.Value) {
			return RefC
		}
	}
	n, ok := Instances(p, params, limit)
	if !ok || n > limit {
		return RefC
	}
	return RefExec
}

// Instances counts the statement instances p runs at params, stopping
// with false as soon as the count is known to exceed limit (or cannot be
// computed).
func Instances(p *scop.Program, params map[string]int64, limit int64) (int64, bool) {
	var total int64
	for _, s := range p.Stmts {
		d, err := s.Domain.FixParams(params)
		if err != nil {
			return 0, false
		}
		// A bounding box bounds the count cheaply; count exactly only
		// when the box is small enough, since counting costs time in
		// proportion to the points.
		box, ok := boxSize(d)
		if !ok || box > limit-total {
			return 0, false
		}
		n, err := d.Count()
		if err != nil {
			return 0, false
		}
		total += n
	}
	return total, total <= limit
}

// boxSize is the number of points of the bounding box of the
// parameter-free set d (false when unbounded or too large).
func boxSize(d presburger.Set) (int64, bool) {
	if empty, err := d.IsEmpty(); err != nil || empty {
		return 0, err == nil
	}
	size := int64(1)
	for i := range d.Space().NOut() {
		lo, ok1 := constOpt(d.DimMin(i))
		hi, ok2 := constOpt(d.DimMax(i))
		if !ok1 || !ok2 {
			return 0, false
		}
		w := hi - lo + 1
		if w > 1<<40/size {
			return 0, false
		}
		size *= w
	}
	return size, true
}

// constOpt reads the value of a parameter-free optimum.
func constOpt(pw presburger.PwMultiAff, err error) (int64, bool) {
	if err != nil || len(pw.Pieces) != 1 || len(pw.Pieces[0].Aff.Rows) != 1 {
		return 0, false
	}
	row := pw.Pieces[0].Aff.Rows[0]
	for _, c := range row[1:] {
		if c != 0 {
			return 0, false
		}
	}
	return row[0], true
}

// CheckBounds reports an access of p outside its array at params: the
// C code would read or write out of bounds without a word. (The
// PolyBench sources declare the extents of the LARGE dataset, for
// example, so EXTRALARGE runs past them.)
func CheckBounds(p *scop.Program, params map[string]int64) error {
	for _, s := range p.Stmts {
		dom, err := s.Domain.FixParams(params)
		if err != nil {
			return err
		}
		for _, acc := range append(append([]scop.Access(nil), s.Writes...), s.Reads...) {
			if acc.May {
				continue
			}
			a := p.Array(acc.Array)
			if a == nil {
				continue
			}
			if err := checkAccess(s, a, acc, dom, params); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkAccess(s *scop.Stmt, a *scop.Array, acc scop.Access, dom presburger.Set, params map[string]int64) error {
	shape, err := a.Shape(params)
	if err != nil {
		return err
	}
	rel, err := acc.Rel.FixParams(params)
	if err != nil {
		return err
	}
	if rel, err = rel.IntersectDomain(dom); err != nil {
		return err
	}
	rng, err := rel.Range()
	if err != nil {
		return err
	}
	sp := rng.Space()
	dims := make([]string, len(shape))
	cons := []string{"true"}
	for i, n := range shape {
		dims[i] = fmt.Sprintf("i%d", i)
		cons = append(cons, fmt.Sprintf("0 <= i%d < %d", i, n))
	}
	box, err := presburger.ParseSet(fmt.Sprintf("{ %s[%s] : %s }", sp.Out.Name, strings.Join(dims, ", "), strings.Join(cons, " and ")))
	if err != nil {
		return err
	}
	out, err := rng.Subtract(box)
	if err != nil {
		return err
	}
	pt, ok, err := out.SamplePoint()
	if err != nil || !ok {
		return err
	}
	return fmt.Errorf("%s: statement %s accesses %s%s, outside the array's extents %s at these sizes", s.At, s.Name, a.Name, index(pt), index(shape))
}

// index writes a subscript or a shape as C would: [1000][0].
func index(xs []int64) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, "[%d]", x)
	}
	return b.String()
}
