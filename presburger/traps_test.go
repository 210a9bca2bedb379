package presburger

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustSet(t *testing.T, src string) Set {
	t.Helper()
	s, err := ParseSet(src)
	if err != nil {
		t.Fatalf("ParseSet(%q): %v", src, err)
	}
	return s
}

// The classic traps of integer set libraries: each case states whether the
// set is empty, and points that must be in or out.
func TestTraps(t *testing.T) {
	tests := []struct {
		name  string
		set   string
		empty bool
		in    [][]int64
		out   [][]int64
	}{
		{name: "integer hole between bounds", set: "{ [x] : 1 <= 2x <= 1 }", empty: true},
		{name: "rational point only", set: "{ [x, y] : 0 < 2x - 2y < 2 }", empty: true},
		{name: "lattice-free triangle", set: "{ [x, y] : 3x + 5y = 7 and x >= 0 and y >= 0 }", empty: true},
		{name: "parity equality", set: "{ [x, y, z] : 2x + 4y + 6z = 1 }", empty: true},
		{name: "thin slab", set: "{ [x, y] : 1 <= 3x - 3y <= 2 }", empty: true},
		{name: "thin slab with points", set: "{ [x, y] : 0 <= 1000x - 999y <= 0 and 0 <= x <= 2000 }",
			in: [][]int64{{0, 0}, {999, 1000}}, out: [][]int64{{1, 1}}},
		{name: "stride from mod", set: "{ [i] : i mod 3 = 1 and 0 <= i <= 10 }",
			in: [][]int64{{1}, {4}, {10}}, out: [][]int64{{0}, {2}, {11}, {-2}}},
		{name: "stride from existential", set: "{ [i] : exists (e: i = 4e + 2) }",
			in: [][]int64{{2}, {-2}, {102}}, out: [][]int64{{0}, {4}}},
		{name: "divisibility makes it empty", set: "{ [i] : i mod 2 = 0 and i mod 2 = 1 }", empty: true},
		{name: "two strides with no common point", set: "{ [i] : exists (a, b: i = 4a + 1 and i = 6b + 4) }", empty: true},
		{name: "two strides meeting", set: "{ [i] : exists (a, b: i = 4a + 1 and i = 6b + 3) }",
			in: [][]int64{{9}, {21}}, out: [][]int64{{1}, {3}}},
		{name: "unbounded half plane", set: "{ [x, y] : x + y >= 5 }", in: [][]int64{{100, -95}}, out: [][]int64{{0, 0}}},
		{name: "unbounded strip without integers", set: "{ [x, y] : 2x + 2y >= 1 and 2x + 2y <= 1 }", empty: true},
		{name: "unbounded cone with far points", set: "{ [x, y] : 7y >= 5x + 1 and 7y <= 5x + 2 and x >= 0 }",
			in: [][]int64{{4, 3}}},
		{name: "large coefficients", set: "{ [x, y] : 1000003x = 999983y + 1 }", in: [][]int64{{649989, 650002}}, out: [][]int64{{0, 0}}},
		{name: "large coefficients empty", set: "{ [x, y] : 1000002x = 999984y + 1 }", empty: true},
		{name: "parameter only in constraints", set: "[N, M] -> { [i] : N > M and M > N }", empty: true},
		{name: "parameter-only constraint keeps points", set: "[N] -> { [i] : N >= 5 and 0 <= i < N }",
			in: [][]int64{{5, 0}, {7, 6}}, out: [][]int64{{4, 0}, {5, 5}}},
		{name: "floor of floor", set: "{ [i] : floor(floor(i/2)/3) = 1 }",
			in: [][]int64{{6}, {11}}, out: [][]int64{{5}, {12}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSet(t, tc.set)
			empty, err := s.IsEmpty()
			if err != nil {
				t.Fatal(err)
			}
			if empty != tc.empty {
				t.Errorf("IsEmpty = %v, want %v (set %s)", empty, tc.empty, s)
			}
			for _, p := range tc.in {
				if ok, err := s.Contains(p); err != nil || !ok {
					t.Errorf("Contains(%v) = %v, %v; want true", p, ok, err)
				}
			}
			for _, p := range tc.out {
				if ok, err := s.Contains(p); err != nil || ok {
					t.Errorf("Contains(%v) = %v, %v; want false", p, ok, err)
				}
			}
			pt, ok, err := s.SamplePoint()
			if err != nil || ok == tc.empty {
				t.Fatalf("SamplePoint = %v, %v, %v; empty = %v", pt, ok, err, tc.empty)
			}
			if ok {
				if in, _ := s.Contains(pt); !in {
					t.Errorf("sample %v is not in %s", pt, s)
				}
			}
			// Printing round-trips to an equal set (an empty set prints as
			// "{  }", which like isl's output carries no space).
			if tc.empty {
				return
			}
			back := mustSet(t, s.String())
			if eq, err := back.IsEqual(s); err != nil || !eq {
				t.Errorf("reparsed %q differs: %v", s.String(), err)
			}
		})
	}
}

func TestSubtractSelfIsEmpty(t *testing.T) {
	for _, src := range []string{
		"[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i }",
		"{ [i] : exists (e = floor(i/3): i = 3e) or i >= 100 }",
		"{ [i, j] : exists (e: 2e <= i + j <= 2e + 1 and i >= j) }",
		"[N] -> { [i] : i mod 5 = 2 and i < N }",
	} {
		s := mustSet(t, src)
		d, err := s.Subtract(s)
		if err != nil {
			t.Fatal(err)
		}
		if empty, err := d.IsEmpty(); err != nil || !empty {
			t.Errorf("%s minus itself = %s, want empty", src, d)
		}
	}
}

func TestEmptyPrinting(t *testing.T) {
	tests := []struct{ src, want string }{
		{"{ }", "{  }"},
		{"[N] -> { A[i] : false }", "[N] -> {  }"},
		{"{ A[i] : 1 = 0; B[j] : j > j }", "{  }"},
	}
	for _, tc := range tests {
		u, err := ParseUnionSet(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		e, err := u.Subtract(u)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, e.String()); diff != "" {
			t.Errorf("%s minus itself prints (-want +got):\n%s", tc.src, diff)
		}
	}
}

// Overflow must surface as an error, never as a wrong set.
func TestOverflowIsAnError(t *testing.T) {
	tests := []struct {
		src   string
		empty bool
	}{
		{"{ [x, y] : 3074457345618258602x = 3074457345618258603y + 1 }", false},
		{"{ [x, y] : 3074457345618258602x = 3074457345618258602y + 1 }", true},
		{"{ [x, y] : 4611686018427387903x >= 4611686018427387902y + 1 and 4611686018427387901x <= 4611686018427387900y }", false},
	}
	for _, tc := range tests {
		s, err := ParseSet(tc.src)
		if err != nil {
			if !errors.Is(err, ErrOverflow) {
				t.Errorf("ParseSet(%q): %v, want success or ErrOverflow", tc.src, err)
			}
			continue
		}
		empty, err := s.IsEmpty()
		switch {
		case err != nil && !errors.Is(err, ErrOverflow):
			t.Errorf("IsEmpty(%s): unexpected error %v", tc.src, err)
		case err == nil && empty != tc.empty:
			t.Errorf("IsEmpty(%s) = %v, want %v", tc.src, empty, tc.empty)
		}
	}
}

// A blow-up stops with ErrBudget instead of running on: the complement of a
// union of random 4-dimensional polytopes explodes into thousands of
// disjuncts (24 polytopes take tens of seconds without limits).
func TestBudgetStopsBlowUp(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	src := "{ [a, b, c, d] : "
	for i := 0; i < 24; i++ {
		if i > 0 {
			src += " or "
		}
		src += "("
		for k := 0; k < 6; k++ {
			if k > 0 {
				src += " and "
			}
			src += fmt.Sprintf("%da + %db + %dc + %dd <= %d", rng.Intn(41)-20, rng.Intn(41)-20, rng.Intn(41)-20, rng.Intn(41)-20, rng.Intn(60))
		}
		src += ")"
	}
	s := mustSet(t, src+" }")
	old := CurrentLimits()
	defer SetLimits(old)
	for _, l := range []Limits{{MaxOps: 50_000, MaxPieces: 1_000_000}, {MaxOps: 1 << 40, MaxPieces: 300}} {
		// The limits are the bound: the complement must stop with
		// ErrBudget (no wall-clock assertion).
		SetLimits(l)
		_, err := s.Complement()
		if !errors.Is(err, ErrBudget) {
			t.Fatalf("complement under %+v: err = %v, want ErrBudget", l, err)
		}
	}
}

// Subtraction must give explicit definitions to existentials that only
// appear inside another local's floor (found by the isl differential test).
func TestSubtractHiddenExistential(t *testing.T) {
	a, err := ParseUnionSet("{ A[i, j] }")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseUnionSet("{ A[i, j] : exists (o, e0 = floor((2o - 2j - 5)/5) : -2j - 1 <= 5e0 + 9) }")
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Subtract(b)
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := d.IsEmpty(); err != nil || !empty {
		t.Errorf("difference = %s (%v), want empty", d, err)
	}
}
