package polymage

import (
	"sort"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// vol is an array of a Go reference implementation: a shape and its
// values in row-major order, as the DSL stores a function.
type vol[T float32 | int16 | int32 | uint8] struct {
	shape []int
	v     []T
}

func newVol[T float32 | int16 | int32 | uint8](shape ...int) *vol[T] {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return &vol[T]{shape: shape, v: make([]T, n)}
}

// at is the element at idx (one index per dimension).
func (a *vol[T]) at(idx ...int) *T {
	off := 0
	for d, i := range idx {
		if i < 0 || i >= a.shape[d] {
			panic("vol: index out of range")
		}
		off = off*a.shape[d] + i
	}
	return &a.v[off]
}

// buffer is the array as a buffer of type t.
func (a *vol[T]) buffer(t scop.ElemType) *scop.Buffer {
	shape := make([]int64, len(a.shape))
	for i, d := range a.shape {
		shape[i] = int64(d)
	}
	b, err := scop.NewBuffer(t, shape)
	if err != nil {
		panic(err)
	}
	for i, v := range a.v {
		if t.IsFloat() {
			b.Store(int64(i), scop.Value{F: float64(v)})
		} else {
			b.Store(int64(i), scop.IntValue(t, int64(v)))
		}
	}
	return b
}

// volOf reads a buffer into a vol.
func volOf[T float32 | int16 | int32 | uint8](b *scop.Buffer) *vol[T] {
	shape := make([]int, len(b.Shape))
	for i, d := range b.Shape {
		shape[i] = int(d)
	}
	a := newVol[T](shape...)
	for i := range a.v {
		if b.Type.IsFloat() {
			a.v[i] = T(b.Load(int64(i)).F)
		} else {
			a.v[i] = T(b.Load(int64(i)).I)
		}
	}
	return a
}

// execEntry builds e and runs it in the reference executor at params on
// e's inputs for seed; it returns copies of the inputs and every array.
func execEntry(t *testing.T, e Entry, params map[string]int64, seed uint64) (prog *scop.Program, in, bufs map[string]*scop.Buffer) {
	t.Helper()
	prog, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	bufs, err = e.Inputs(prog, params, seed)
	if err != nil {
		t.Fatal(err)
	}
	in = map[string]*scop.Buffer{}
	for name, b := range bufs {
		in[name] = b.Clone()
	}
	if err := refexec.Run(prog, params, bufs); err != nil {
		t.Fatalf("%v: %v", params, err)
	}
	return prog, in, bufs
}

// expectArrays compares every array the program computes with the Go
// reference's, within relative tolerance tol (0: bitwise); the reference
// must compute them all.
func expectArrays(t *testing.T, prog *scop.Program, params map[string]int64, got, want map[string]*scop.Buffer, tol float64) {
	t.Helper()
	for _, a := range prog.Arrays {
		if a.LiveIn {
			continue
		}
		w, ok := want[a.Name]
		if !ok {
			t.Errorf("%v: the Go reference does not compute %s", params, a.Name)
			continue
		}
		m, err := scop.Compare(got[a.Name], w, tol)
		if err != nil {
			t.Fatalf("%v: %s: %v", params, a.Name, err)
		}
		if m != nil {
			t.Errorf("%v: %s: %s", params, a.Name, m)
		}
	}
}

// functionArrays is the number of functions a DSL program computes: one
// array each.
func functionArrays(prog *scop.Program) int {
	n := 0
	for _, a := range prog.Arrays {
		if !a.LiveIn {
			n++
		}
	}
	return n
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestStageCounts checks that every pipeline has about as many stages as
// PolyMage counts: its statements or its functions (PolyMage counts a
// function's cases and accumulations differently from benchmark to
// benchmark, and ports differ in helper stages) within max(3, 15%).
func TestStageCounts(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			prog, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			stmts, funcs := len(prog.Stmts), functionArrays(prog)
			tol := max(3, e.Stages*15/100)
			t.Logf("PolyMage %d stages; %d statements, %d functions", e.Stages, stmts, funcs)
			if absInt(stmts-e.Stages) > tol && absInt(funcs-e.Stages) > tol {
				t.Errorf("%d statements and %d functions, PolyMage counts %d stages", stmts, funcs, e.Stages)
			}
		})
	}
}

// TestDefaults checks that every pipeline builds, that its default and
// small sizes satisfy its context, and that its arrays have sizes there.
func TestDefaults(t *testing.T) {
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			prog, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Defaults) == 0 || len(e.Small) == 0 {
				t.Fatal("no default or small sizes")
			}
			for _, ps := range []map[string]int64{e.Defaults, e.Small} {
				if err := prog.CheckParams(ps); err != nil {
					t.Fatal(err)
				}
				for _, a := range prog.Arrays {
					shape, err := a.Shape(ps)
					if err != nil {
						t.Fatalf("%v: %v", ps, err)
					}
					for _, d := range shape {
						if d <= 0 {
							t.Errorf("%v: array %s has shape %v", ps, a.Name, shape)
						}
					}
				}
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	all := All()
	names := make([]string, len(all))
	for i, e := range all {
		names[i] = e.Name
		if e.Stages <= 0 {
			t.Errorf("%s: no stage count", e.Name)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Errorf("All is not sorted: %v", names)
	}
	for _, name := range []string{"bilateral_grid", "camera_pipe", "harris", "unsharp_mask"} {
		e, ok := Lookup(name)
		if !ok || e.Name != name {
			t.Errorf("Lookup(%q) = %v, %v", name, e.Name, ok)
		}
	}
	if _, ok := Lookup("no_such_pipeline"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	// All hands out copies: changing one changes nothing registered.
	e, _ := Lookup("harris")
	e.Defaults["R"] = 1
	if f, _ := Lookup("harris"); f.Defaults["R"] != HarrisRows {
		t.Errorf("a caller's change reached the registry: R = %d", f.Defaults["R"])
	}
}

// TestInputsDeterministic checks that an entry's inputs depend only on
// the seed.
func TestInputsDeterministic(t *testing.T) {
	for _, name := range []string{"bilateral_grid", "camera_pipe", "harris", "unsharp_mask"} {
		e, _ := Lookup(name)
		prog, err := e.Build()
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.Inputs(prog, e.Small, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := e.Inputs(prog, e.Small, 7)
		c, _ := e.Inputs(prog, e.Small, 8)
		differs := false
		for n := range a {
			if string(a[n].Data) != string(b[n].Data) {
				t.Errorf("%s: input %s differs between two calls", name, n)
			}
			differs = differs || string(a[n].Data) != string(c[n].Data)
		}
		if !differs {
			t.Errorf("%s: seeds 7 and 8 give the same inputs", name)
		}
	}
}
