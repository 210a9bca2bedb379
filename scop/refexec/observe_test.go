package refexec_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// recorder writes each access as "load T local 0".
type recorder struct {
	names  map[*scop.Buffer]string
	events []string
}

func (r *recorder) Load(array string, b *scop.Buffer, off int64) {
	r.events = append(r.events, fmt.Sprintf("load %s %s %d", array, r.names[b], off))
}

func (r *recorder) Store(array string, b *scop.Buffer, off int64) {
	r.events = append(r.events, fmt.Sprintf("store %s %s %d", array, r.names[b], off))
}

// TestObserveFolded: the observer sees each statement's loads, then its
// store, with the buffer accessed; a folded buffer from origin 1 holds
// element i at (i - 1) mod 2.
func TestObserveFolded(t *testing.T) {
	n := nParam
	i := iterI("i", 0)
	tmp := arr("T", scop.I32, n)
	out := arr("out", scop.I32, n)
	out.LiveOut = true
	w := stmt(t, "W", []string{"i"}, "[N] -> { W[i] : 0 <= i < N }", "[N] -> { W[i] -> [0, i] }", ref(tmp, i), bin(scop.Mul, i, cI(10)))
	r := stmt(t, "R", []string{"i"}, "[N] -> { R[i] : 0 <= i < N }", "[N] -> { R[i] -> [1, i] }", ref(out, i), bin(scop.Add, rd(tmp, i), rd(out, i)))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{tmp, out}, w, r)
	params := map[string]int64{"N": 6}
	bufs := map[string]*scop.Buffer{}
	rec := &recorder{}
	code, err := refexec.Compile(p, params, bufs, refexec.Options{Rebind: []string{"T"}, Observe: rec})
	if err != nil {
		t.Fatal(err)
	}
	ring, _ := scop.NewBuffer(scop.I32, []int64{2})
	ring.Origin, ring.Fold = []int64{1}, []int64{2}
	if _, err := code.Bind("T", ring); err != nil {
		t.Fatal(err)
	}
	rec.names = map[*scop.Buffer]string{ring: "ring", bufs["out"]: "global"}
	for _, x := range []struct {
		stmt string
		i    int64
	}{{"W", 3}, {"W", 4}, {"R", 3}, {"W", 5}, {"R", 4}, {"R", 5}} {
		if err := code.Exec(x.stmt, []int64{x.i}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"store T ring 0", "store T ring 1",
		"load T ring 0", "load out global 3", "store out global 3",
		"store T ring 0",
		"load T ring 1", "load out global 4", "store out global 4",
		"load T ring 0", "load out global 5", "store out global 5",
	}
	if diff := cmp.Diff(want, rec.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{0, 0, 0, 30, 40, 50}, ints(bufs["out"])); diff != "" {
		t.Errorf("out (-want +got):\n%s", diff)
	}
	if _, err := code.Bind("T", &scop.Buffer{Type: scop.I32, Shape: []int64{2}, Data: make([]byte, 8), Fold: []int64{2, 0}}); err == nil {
		t.Error("Bind of a buffer with a fold per dimension too many: no error")
	}
}
