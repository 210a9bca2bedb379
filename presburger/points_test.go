package presburger

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// collect returns the points Foreach reports, copied.
func collect(s Set) ([][]int64, error) {
	var pts [][]int64
	err := s.Foreach(func(pt []int64) error {
		pts = append(pts, append([]int64{}, pt...))
		return nil
	})
	return pts, err
}

func TestForeach(t *testing.T) {
	tests := []struct {
		name string
		set  string
		want [][]int64
	}{
		{"box", "{ [i, j] : 0 <= i < 2 and 0 <= j < 3 }", [][]int64{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}},
		{"triangle", "{ [i, j] : 0 <= j <= i < 3 }", [][]int64{{0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}}},
		{"inner bound from outer", "{ [i, j] : 0 <= i <= 3 and i <= j < 4 and i + j <= 4 }", [][]int64{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {1, 3}, {2, 2}}},
		{"outer bound from inner", "{ [i, j] : 0 <= j <= 2 and j <= i <= j + 1 and i + j >= 3 }", [][]int64{{2, 1}, {2, 2}, {3, 2}}},
		{"stride", "{ [i] : exists e : i = 3e and 0 <= i <= 10 }", [][]int64{{0}, {3}, {6}, {9}}},
		{"mod", "{ [i] : 0 <= i < 10 and i mod 4 = 1 }", [][]int64{{1}, {5}, {9}}},
		{"floor", "{ [i, j] : 0 <= i < 5 and j = floor(i / 2) }", [][]int64{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}}},
		{"negative floor", "{ [i, j] : -3 <= i <= -1 and j = floor(i / 2) }", [][]int64{{-3, -2}, {-2, -1}, {-1, -1}}},
		{"overlapping union", "{ [i] : 0 <= i <= 3; [i] : 2 <= i <= 5; [i] : i = 9 }", [][]int64{{0}, {1}, {2}, {3}, {4}, {5}, {9}}},
		{"overlapping 2-D union", "{ [i, j] : 0 <= i <= 1 and 0 <= j <= 1; [i, j] : 1 <= i <= 2 and 1 <= j <= 2 }",
			[][]int64{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}},
		{"existential", "{ [i, j] : 0 <= i <= 4 and 0 <= j <= 4 and exists e : i <= 3e <= j }",
			[][]int64{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 3}, {3, 4}}},
		{"two existentials", "{ [i] : exists a, b : i = 2a + 3b and 0 <= a <= 1 and 0 <= b <= 2 }",
			[][]int64{{0}, {2}, {3}, {5}, {6}, {8}}},
		{"wide coefficients", "{ [i, j] : 0 <= i <= 2 and 2i <= 3j <= 2i + 2 }", [][]int64{{0, 0}, {1, 1}, {2, 2}}},
		{"empty", "{ [i] : 0 <= i and i < 0 }", nil},
		{"integer empty", "{ [i, j] : 1 <= 2i - 2j <= 1 and 0 <= i <= 5 }", nil},
		{"zero-dimensional", "{ S[] }", [][]int64{{}}},
		{"zero-dimensional empty", "{ S[] : 1 = 0 }", nil},
		{"named tuple", "{ S[i, j, k] : 0 <= i <= 1 and j = i and 0 <= k <= i }", [][]int64{{0, 0, 0}, {1, 1, 0}, {1, 1, 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSet(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			got, err := collect(s)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Foreach(%s) mismatch (-want +got):\n%s", tc.set, diff)
			}
		})
	}
}

func TestForeachErrors(t *testing.T) {
	stop := errors.New("stop")
	tests := []struct {
		name  string
		set   string
		fn    func(calls int) error
		want  error
		calls int
	}{
		{"parametric", "[N] -> { [i] : 0 <= i < N }", nil, ErrParametric, 0},
		{"unbounded", "{ [i, j] : 0 <= i <= 3 and j >= i }", nil, ErrInfinite, 0},
		{"unbounded existential", "{ [i] : exists e : i = 2e and i >= 0 }", nil, ErrInfinite, 0},
		{"stop", "{ [i, j] : 0 <= i, j < 10 }", func(calls int) error {
			if calls == 7 {
				return stop
			}
			return nil
		}, stop, 7},
		{"stop in union", "{ [i] : 0 <= i <= 5; [i] : 3 <= i <= 8 }", func(calls int) error {
			if calls == 6 {
				return stop
			}
			return nil
		}, stop, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSet(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			err = s.Foreach(func([]int64) error {
				calls++
				if tc.fn != nil {
					return tc.fn(calls)
				}
				return nil
			})
			if !errors.Is(err, tc.want) || calls != tc.calls {
				t.Errorf("Foreach = %v after %d calls, want %v after %d", err, calls, tc.want, tc.calls)
			}
		})
	}
}

// bruteExists reports membership of pt in r, where the last nExist
// coordinates of r's original space were projected out: they range over
// [-B, B].
func bruteAll(r rel, n int, B int64, in func([]int64) bool) [][]int64 {
	var out [][]int64
	points(n, B, func(pt []int64) {
		if in(pt) {
			out = append(out, append([]int64{}, pt...))
		}
	})
	return out
}

// TestForeachAgainstBruteForce compares Foreach with membership over a box
// on random bounded sets: unions of overlapping pieces with floor locals,
// projections (existentials without a definition) and parametric sets with
// the parameter fixed.
func TestForeachAgainstBruteForce(t *testing.T) {
	const B = 4
	rng := rand.New(rand.NewSource(7))
	for iter := 0; iter < 400; iter++ {
		kind := iter % 3
		dims := []string{"x", "y", "z"}[:1+rng.Intn(3)]
		n := len(dims)
		var set Set
		var want [][]int64
		switch kind {
		case 0: // pieces with floor locals
			r := randRel(rng, SetSpace(nil, NewTuple("S", dims...)), B)
			set = Set{r}
			want = bruteAll(r, n, B, func(pt []int64) bool { return bruteIn(r, pt) })
		case 1: // an existential from a projection
			full := append(append([]string{}, dims...), "e")
			r := randRel(rng, SetSpace(nil, NewTuple("S", full...)), B)
			pos := rng.Intn(n + 1)
			set = Set{r.projectOut(DimOut, pos, 1)}
			want = bruteAll(r, n, B, func(pt []int64) bool {
				for v := int64(-B); v <= B; v++ {
					x := append(append(append([]int64{}, pt[:pos]...), v), pt[pos:]...)
					if bruteIn(r, x) {
						return true
					}
				}
				return false
			})
		case 2: // a parameter, fixed
			r := randRel(rng, SetSpace([]string{"N"}, NewTuple("S", dims...)), B)
			v := int64(rng.Intn(2*B+1) - B)
			var err error
			if set, err = (Set{r}).FixParams(map[string]int64{"N": v}); err != nil {
				t.Fatalf("iter %d: FixParams: %v", iter, err)
			}
			want = bruteAll(r, n, B, func(pt []int64) bool { return bruteIn(r, append([]int64{v}, pt...)) })
		}
		got, err := collect(set)
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatalf("iter %d: Foreach(%s): %v", iter, set, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("iter %d: Foreach(%s) mismatch (-want +got):\n%s", iter, set, diff)
		}
	}
}

func TestFixParams(t *testing.T) {
	tests := []struct {
		name string
		in   string
		vals map[string]int64
		want string
		err  string
	}{
		{"set", "[N, M] -> { S[i] : 0 <= i < N and i <= M }", map[string]int64{"N": 5, "M": 3, "K": 9}, "{ S[i] : 0 <= i <= 3 }", ""},
		{"floor", "[N] -> { [i] : 0 <= i < N and i = 2 * floor((i + N) / 2) - N }", map[string]int64{"N": 5}, "{ [i] : exists e : i = 2e + 1 and 0 <= i <= 4 }", ""},
		{"empty", "[N] -> { [i] : 0 <= i < N }", map[string]int64{"N": 0}, "{ [i] : 1 = 0 }", ""},
		{"param set", "[N] -> { : N >= 2 }", map[string]int64{"N": 1}, "{ : 1 = 0 }", ""},
		{"param set true", "[N] -> { : N >= 2 }", map[string]int64{"N": 2}, "{ : 0 = 0 }", ""},
		{"missing", "[N, M] -> { [i] : 0 <= i < N + M }", map[string]int64{"N": 1}, "", "presburger: FixParams: no value for parameter M"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSet(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.FixParams(tc.vals)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("FixParams error = %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := ParseSet(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if n := got.Space().NParam(); n != 0 {
				t.Errorf("FixParams(%s) has %d parameters", tc.in, n)
			}
			if eq, err := got.IsEqual(want); err != nil || !eq {
				t.Errorf("FixParams(%s) = %s, want %s (%v)", tc.in, got, want, err)
			}
		})
	}
}

func TestMapFixParams(t *testing.T) {
	m, err := ParseMap("[N, M] -> { S[i] -> [t, u] : 0 <= i < N and t = i + M and u = floor(i / 2) }")
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.FixParams(map[string]int64{"N": 4, "M": 10})
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseMap("{ S[i] -> [i + 10, floor(i / 2)] : 0 <= i < 4 }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(want); err != nil || !eq {
		t.Errorf("FixParams = %s, want %s (%v)", got, want, err)
	}
	if _, err := m.FixParams(map[string]int64{"N": 4}); err == nil {
		t.Error("FixParams without M succeeded")
	}
}

// TestFixParamsAgainstBruteForce checks membership after fixing against
// membership of the point with the parameter values prepended.
func TestFixParamsAgainstBruteForce(t *testing.T) {
	const B = 3
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 200; iter++ {
		params := []string{"N", "M"}[:1+rng.Intn(2)]
		sp := SetSpace(params, NewTuple("S", []string{"x", "y"}[:1+rng.Intn(2)]...))
		if iter%2 == 1 {
			sp = MapSpace(params, NewTuple("A", "a"), NewTuple("B", "b"))
		}
		r := randRel(rng, sp, 0)
		vals := map[string]int64{}
		pv := make([]int64, len(params))
		for i, p := range params {
			pv[i] = int64(rng.Intn(2*B+1) - B)
			vals[p] = pv[i]
		}
		var fixed rel
		if sp.IsMap {
			m, err := (Map{r}).FixParams(vals)
			if err != nil {
				t.Fatal(err)
			}
			fixed = m.r
		} else {
			s, err := (Set{r}).FixParams(vals)
			if err != nil {
				t.Fatal(err)
			}
			fixed = s.r
		}
		n := sp.NIn() + sp.NOut()
		points(n, B, func(pt []int64) {
			if g, w := fixed.contains(pt), bruteIn(r, append(append([]int64{}, pv...), pt...)); g != w {
				t.Fatalf("iter %d at %v with %v: got %v want %v\nr = %s\nfixed = %s", iter, pt, vals, g, w, r, fixed)
			}
		})
	}
}

func TestEval(t *testing.T) {
	tests := []struct {
		name string
		m    string
		max  bool
		in   [][]int64
		want [][]int64 // nil: no piece
	}{
		{"affine", "[N] -> { S[i] -> [i + N, 2i] : 0 <= i < N }", false,
			[][]int64{{5, 0}, {5, 4}, {5, 5}, {3, -1}}, [][]int64{{5, 0}, {9, 8}, nil, nil}},
		{"floor", "{ S[i] -> [floor(i / 3), i mod 3] }", false,
			[][]int64{{7}, {-7}, {0}}, [][]int64{{2, 1}, {-3, 2}, {0, 0}}},
		{"pieces", "{ [i] -> [j] : 0 <= j <= 10 and (j >= i or j >= 5) }", false,
			[][]int64{{2}, {7}, {11}}, [][]int64{{2}, {5}, {5}}},
		{"max", "{ [i] -> [j] : 0 <= j <= i and j <= 4 }", true,
			[][]int64{{2}, {9}, {-1}}, [][]int64{{2}, {4}, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseMap(tc.m)
			if err != nil {
				t.Fatal(err)
			}
			pw, err := m.LexMinPw()
			if tc.max {
				pw, err = m.LexMaxPw()
			}
			if err != nil {
				t.Fatal(err)
			}
			var got [][]int64
			for _, pt := range tc.in {
				v, ok, err := pw.Eval(pt)
				if err != nil {
					t.Fatal(err)
				}
				if ok != (v != nil) {
					t.Fatalf("Eval(%v) = %v, %v", pt, v, ok)
				}
				got = append(got, v)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Eval on %s mismatch (-want +got):\n%s", pw, diff)
			}
		})
	}
	s, err := ParseSet("[N] -> { [i, j] : 0 <= i < N and N - 2 <= j <= 2i }")
	if err != nil {
		t.Fatal(err)
	}
	pw, err := s.LexMinPw()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int64
		want []int64
	}{{4, []int64{1, 2}}, {1, []int64{0, -1}}, {0, nil}} {
		got, ok, err := pw.Eval([]int64{tc.n})
		if err != nil || ok != (tc.want != nil) || !cmp.Equal(got, tc.want) {
			t.Errorf("set lexmin at N = %d: %v, %v, %v, want %v", tc.n, got, ok, err, tc.want)
		}
	}
	if _, _, err := pw.Eval([]int64{1, 2}); err == nil {
		t.Error("Eval with a wrong arity succeeded")
	}
}

// TestEvalAgainstBruteForce compares the lexicographic minimum and maximum
// of random boxed maps, evaluated point by point, with brute force.
func TestEvalAgainstBruteForce(t *testing.T) {
	const B = 3
	rng := rand.New(rand.NewSource(5))
	for iter := 0; iter < 80; iter++ {
		params := []string{"N"}[:rng.Intn(2)]
		np := len(params)
		// At most four variables: lexopt of random relations is slow.
		nin := 1 + rng.Intn(2)
		in := NewTuple("A", []string{"a0", "a1"}[:nin]...)
		out := NewTuple("B", []string{"b0", "b1"}[:1+rng.Intn(min(2, 4-np-nin))]...)
		r := randRel(rng, MapSpace(params, in, out), B)
		max := iter%2 == 1
		m := Map{r}
		var pw PwMultiAff
		var err error
		if max {
			pw, err = m.LexMaxPw()
		} else {
			pw, err = m.LexMinPw()
		}
		if errors.Is(err, ErrOverflow) || errors.Is(err, ErrBudget) {
			continue
		}
		if err != nil {
			t.Fatalf("iter %d: lexopt of %s: %v", iter, m, err)
		}
		points(np+in.Len(), B, func(x []int64) {
			var want []int64
			points(out.Len(), B, func(y []int64) {
				if bruteIn(r, append(append([]int64{}, x...), y...)) && (want == nil || max) {
					want = append([]int64{}, y...)
				}
			})
			got, ok, err := pw.Eval(x)
			if err != nil {
				t.Fatalf("iter %d: Eval(%v): %v", iter, x, err)
			}
			if ok != (want != nil) || !cmp.Equal(got, want) {
				t.Fatalf("iter %d: Eval(%v) = %v, %v; brute force %v\nm = %s\npw = %s", iter, x, got, ok, want, m, pw)
			}
		})
	}
}

func benchForeach(b *testing.B, text string) {
	s, err := ParseSet(text)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	b.ResetTimer()
	for range b.N {
		if err := s.Foreach(func([]int64) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "points/s")
}

func BenchmarkForeach(b *testing.B) {
	for _, bc := range []struct{ name, set string }{
		{"box", "{ [i, j, k] : 0 <= i, j, k < 200 }"},
		{"triangle", "{ [i, j, k] : 0 <= i < 200 and 0 <= j <= i and 0 <= k < 200 }"},
		{"union", "{ [i, j] : 0 <= i, j < 1000; [i, j] : 500 <= i, j < 1500 }"},
		{"stride", "{ [i, j] : 0 <= i < 1000 and 0 <= j < 1000 and j mod 4 = 1 }"},
		{"wrapped schedule", "{ [[t0, t1, t2, t3, t4] -> S[i, j]] : t0 = 0 and t1 = i and t2 = 1 and t3 = j and t4 = 0 and 0 <= i, j < 1000 }"},
	} {
		b.Run(bc.name, func(b *testing.B) { benchForeach(b, bc.set) })
	}
}

func ExampleSet_Foreach() {
	s, _ := ParseSet("[N] -> { S[i, j] : 0 <= i < N and i <= j < N }")
	s, _ = s.FixParams(map[string]int64{"N": 3})
	_ = s.Foreach(func(pt []int64) error {
		fmt.Print(pt, " ")
		return nil
	})
	// Output: [0 0] [0 1] [0 2] [1 1] [1 2] [2 2]
}
