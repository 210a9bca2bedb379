package polymage

import (
	"math"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// pyrPlane is a function's values in the Go references of the pyramid
// pipelines: lead planes (channels, intensity levels; 1 when the
// function has none) of rows x cols, row-major as the DSL stores them.
type pyrPlane struct {
	lead, rows, cols int
	flat             bool // no leading dimension: the array is rows x cols
	v                []float32
}

func newPyrPlane(lead, rows, cols int) *pyrPlane {
	return &pyrPlane{lead: lead, rows: rows, cols: cols, v: make([]float32, lead*rows*cols)}
}

// newPyrFlat is a plane without a leading dimension.
func newPyrFlat(rows, cols int) *pyrPlane {
	p := newPyrPlane(1, rows, cols)
	p.flat = true
	return p
}

func (p *pyrPlane) at(k, i, j int) float32     { return p.v[(k*p.rows+i)*p.cols+j] }
func (p *pyrPlane) set(k, i, j int, v float32) { p.v[(k*p.rows+i)*p.cols+j] = v }

// buffer is the plane as the program's array.
func (p *pyrPlane) buffer() *scop.Buffer {
	shape := []int64{int64(p.lead), int64(p.rows), int64(p.cols)}
	if p.flat {
		shape = shape[1:]
	}
	b, err := scop.NewBuffer(scop.F32, shape)
	if err != nil {
		panic(err)
	}
	for i, v := range p.v {
		b.Store(int64(i), scop.Value{F: float64(v)})
	}
	return b
}

// pyrPlaneOf reads an f32 input buffer of rank 2 or 3.
func pyrPlaneOf(b *scop.Buffer) *pyrPlane {
	var p *pyrPlane
	switch len(b.Shape) {
	case 2:
		p = newPyrFlat(int(b.Shape[0]), int(b.Shape[1]))
	case 3:
		p = newPyrPlane(int(b.Shape[0]), int(b.Shape[1]), int(b.Shape[2]))
	default:
		panic("pyrPlaneOf: rank")
	}
	for i := range p.v {
		p.v[i] = float32(b.Load(int64(i)).F)
	}
	return p
}

// roundF32 rounds a float64 value at run time, as the DSL rounds a Go
// constant to f32 (a Go constant conversion would round the exact
// decimal instead, which may differ in the last bit).
func roundF32(v float64) float32 { return float32(v) }

// ghostInside reports whether (i, j) is in the interior of rows of level
// xl and columns of level yl, for ghost width g.
func ghostInside(i, j, xl, yl, R, C, g int) bool {
	return i >= g && i < R>>xl+g && j >= g && j < C>>yl+g
}

// runPyr runs prog at ps on inputs from fill and returns every array, and
// copies of the inputs as they were.
func runPyr(t *testing.T, prog *scop.Program, ps map[string]int64, fill func(string, *scop.Buffer, uint64), seed uint64) (bufs, inputs map[string]*scop.Buffer) {
	t.Helper()
	bufs, err := refexec.Alloc(prog, ps)
	if err != nil {
		t.Fatal(err)
	}
	inputs = map[string]*scop.Buffer{}
	for _, a := range prog.Arrays {
		if a.LiveIn {
			fill(a.Name, bufs[a.Name], seed)
			inputs[a.Name] = bufs[a.Name].Clone()
		}
	}
	if err := refexec.Run(prog, ps, bufs); err != nil {
		t.Fatalf("%v: %v", ps, err)
	}
	return bufs, inputs
}

// runPyrRef runs prog at ps on inputs from fill, then compares every
// array it computes with what reference computes from the inputs, within
// relative tolerance tol (0: bitwise).
func runPyrRef(t *testing.T, prog *scop.Program, ps map[string]int64, fill func(string, *scop.Buffer, uint64), seed uint64,
	reference func(in map[string]*scop.Buffer) map[string]*scop.Buffer, tol float64) {
	t.Helper()
	bufs, inputs := runPyr(t, prog, ps, fill, seed)
	expectArrays(t, prog, ps, bufs, reference(inputs), tol)
}

// pyrInteriorClose checks that got (shape [lead, rows, cols] or [rows, cols]) is
// within tol of want(k, i, j) at every interior point, g from each edge.
func pyrInteriorClose(t *testing.T, name string, got *scop.Buffer, g int, tol float64, want func(k, i, j int) float64) {
	t.Helper()
	rows, cols := int(got.Shape[len(got.Shape)-2]), int(got.Shape[len(got.Shape)-1])
	lead := int(got.Len()) / (rows * cols)
	for k := range lead {
		for i := g; i < rows-g; i++ {
			for j := g; j < cols-g; j++ {
				v := got.Load(int64((k*rows+i)*cols + j))
				gv := v.F
				if !got.Type.IsFloat() {
					gv = float64(v.I)
				}
				if w := want(k, i, j); math.Abs(gv-w) > tol {
					t.Fatalf("%s(%d, %d, %d) = %v, want %v within %g", name, k, i, j, gv, w, tol)
				}
			}
		}
	}
}

// pyrFuncCount is the number of functions (stages) a DSL-built program
// computes: statements are named f_s0, f_s0_cK, f_s1, ...
func pyrFuncCount(prog *scop.Program) int {
	seen := map[string]bool{}
	for _, s := range prog.Stmts {
		seen[s.Name[:strings.LastIndex(s.Name, "_s")]] = true
	}
	return len(seen)
}

// checkPyrDefaults builds an entry, checks its defaults against the
// program's context and its stage count, and returns the program.
func checkPyrDefaults(t *testing.T, name string, stages int) *scop.Program {
	t.Helper()
	e, ok := Lookup(name)
	if !ok {
		t.Fatalf("%s is not registered", name)
	}
	prog, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, ps := range []map[string]int64{e.Defaults, e.Small} {
		if err := prog.CheckParams(ps); err != nil {
			t.Fatalf("%v: %v", ps, err)
		}
	}
	if got := pyrFuncCount(prog); got != stages {
		t.Errorf("%d stages, want %d", got, stages)
	}
	return prog
}
