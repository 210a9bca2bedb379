package presburger

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/internal/corpus"
)

func parseSetT(t testing.TB, src string) Set {
	t.Helper()
	s, err := ParseSet(src)
	if err != nil {
		t.Fatalf("ParseSet(%q): %v", src, err)
	}
	return s
}

// sameMembers compares the membership of two rels over the box [-B, B]^n
// (parameters included) and returns the first point where they differ.
func sameMembers(a, b rel, B int64) (pt []int64, ok bool) {
	np, ni, no := a.dims()
	ok = true
	points(np+ni+no, B, func(p []int64) {
		if ok && a.contains(p) != b.contains(p) {
			pt, ok = append([]int64(nil), p...), false
		}
	})
	return pt, ok
}

func TestCoalesceExamples(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int // number of disjuncts after coalescing
	}{
		{"adjacent intervals", "{ A[i] : 0 <= i <= 3; A[i] : 4 <= i <= 9 }", 1},
		{"adjacent boxes", "{ [i, j] : 0 <= i <= 3 and 0 <= j <= 3; [i, j] : 4 <= i <= 9 and 0 <= j <= 3 }", 1},
		{"even and odd", "{ [i] : i mod 2 = 0 and 0 <= i <= 10; [i] : i mod 2 = 1 and 0 <= i <= 10 }", 1},
		{"T shape", "{ [i, j] : 0 <= i <= 10 and 0 <= j <= 10; [i, j] : 2 <= i <= 5 and 2 <= j <= 12 }", 2},
		{"adjacent lines", "{ [i, j] : 0 <= i <= 10 and j = 0; [i, j] : 0 <= i <= 10 and j = 1 }", 1},
		{"line on a box", "{ [i, j] : 0 <= i <= 10 and 0 <= j <= 5; [i, j] : 0 <= i <= 10 and j = 6 }", 1},
		{"triangle and diagonal", "{ [x, y] : x >= 0 and y >= 0 and x + y <= 10; [x, y] : x >= 0 and y >= 0 and x + y = 11 }", 1},
		{"parametric point", "[N] -> { [i] : 0 <= i < N; [i] : i = N }", 2},
		{"parametric adjacent", "[N] -> { [i] : 0 <= i < N; [i] : N <= i <= 2N }", 1},
		{"contained", "{ [i, j] : 0 <= i, j <= 10; [i, j] : 2 <= i <= 3 and j = 4 }", 1},
		{"integer containment", "{ [i] : 0 <= i <= 10; [i] : exists (e: i = 3e and 1 <= i <= 9) }", 1},
		{"empty disjunct", "{ [i] : 0 <= i <= 10; [i] : 1 <= 2i <= 1 }", 1},
		{"same stride", "{ [i] : i mod 3 = 1 and 0 <= i <= 10; [i] : i mod 3 = 1 and 11 <= i <= 20 }", 1},
		{"disjoint", "{ [i] : 0 <= i <= 3; [i] : 5 <= i <= 9 }", 2},
		{"stride subset", "{ [i] : i mod 4 = 1 and 0 <= i <= 20; [i] : i mod 2 = 1 and 0 <= i <= 30 }", 1},
		{"wrap skewed", "{ [i, j] : 0 <= i <= 10 and 0 <= j <= i; [i, j] : 0 <= i <= 10 and j = i + 1 }", 1},
		{"three pieces", "{ [i] : 0 <= i <= 3; [i] : 4 <= i <= 6; [i] : 7 <= i <= 9 }", 1},
		{"tile pieces", "{ [o, i] : 0 <= i <= 99 and 32o <= i <= 32o + 31 and o <= 1; [o, i] : 0 <= i <= 99 and 32o <= i <= 32o + 31 and o >= 2 }", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := parseSetT(t, tc.in)
			c, err := s.Coalesce()
			if err != nil {
				t.Fatal(err)
			}
			if eq, err := c.IsEqual(s); err != nil || !eq {
				t.Fatalf("coalesce changed the set: %s -> %s (%v)", s, c, err)
			}
			if pt, ok := sameMembers(s.r, c.r, 6); !ok {
				t.Fatalf("membership differs at %v: %s -> %s", pt, s, c)
			}
			if diff := cmp.Diff(tc.want, c.NumBasic()); diff != "" {
				t.Errorf("%s -> %s: disjuncts (-want +got):\n%s", s, c, diff)
			}
		})
	}
}

// randCoalesceRel builds a union of small basics over sp that are likely to
// touch, overlap or share strides, the shapes coalescing handles.
func randCoalesceRel(rng *rand.Rand, sp Space, B int64) rel {
	np, ni, no := sp.NParam(), sp.NIn(), sp.NOut()
	nv := np + ni + no
	r := emptyRel(sp)
	stride, rem := int64(2+rng.Intn(3)), int64(0)
	for p := 0; p < 2+rng.Intn(4); p++ {
		b := newUniverse(np, ni, no)
		for v := 0; v < nv; v++ {
			lo := int64(rng.Intn(int(2*B+1))) - B
			hi := lo + int64(rng.Intn(int(B+1)))
			if rng.Intn(8) == 0 {
				hi = lo
			}
			row := make([]int64, 1+nv)
			row[0], row[1+v] = -lo, 1
			b.addIneq(row)
			row = make([]int64, 1+nv)
			row[0], row[1+v] = hi, -1
			if rng.Intn(10) > 0 {
				b.addIneq(row)
			}
		}
		if rng.Intn(3) == 0 {
			row := make([]int64, 1+nv)
			for j := range row {
				row[j] = int64(rng.Intn(5) - 2)
			}
			row[0] = int64(rng.Intn(2*int(B)+1)) - B
			if rng.Intn(4) == 0 {
				b.addEq(row)
			} else {
				b.addIneq(row)
			}
		}
		if rng.Intn(3) == 0 {
			// x_v mod stride = rem with a defined local.
			v := rng.Intn(nv)
			if rng.Intn(2) == 0 {
				rem = int64(rng.Intn(int(stride)))
			}
			num := make([]int64, b.nCol()+1)
			num[1+v] = 1
			c := b.addDiv(num, stride)
			row := make([]int64, b.nCol())
			row[1+v], row[c], row[0] = 1, -stride, -rem
			b.addEq(row)
		}
		r.parts = append(r.parts, b.simplify())
	}
	return r
}

// checkCoalesceCase coalesces one random union and checks it is unchanged.
func checkCoalesceCase(t *testing.T, seed int64) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	const B = 4
	params := []string{"N"}[:rng.Intn(2)]
	dims := []string{"x", "y", "z"}[:1+rng.Intn(2)]
	sp := SetSpace(params, NewTuple("S", dims...))
	if rng.Intn(4) == 0 && len(dims) == 2 {
		sp = MapSpace(params, NewTuple("A", "x"), NewTuple("B", "y"))
	}
	in := randCoalesceRel(rng, sp, B)
	var out rel
	err := func() (err error) {
		defer catch(&err)
		out = in.coalesce()
		return nil
	}()
	if err != nil {
		t.Logf("seed %d: %v (acceptable)", seed, err)
		return
	}
	if pt, ok := sameMembers(in, out, B+2); !ok {
		t.Fatalf("seed %d: membership differs at %v\nin  = %s\nout = %s", seed, pt, in, out)
	}
	if !out.isEqual(in) {
		t.Fatalf("seed %d: not equal\nin  = %s\nout = %s", seed, in, out)
	}
	if len(out.parts) > len(in.parts) {
		t.Fatalf("seed %d: more disjuncts (%d > %d)\nin  = %s\nout = %s", seed, len(out.parts), len(in.parts), in, out)
	}
}

func TestCoalesceRandom(t *testing.T) {
	n := int64(400)
	if testing.Short() {
		n = 100
	}
	for seed := int64(0); seed < n; seed++ {
		checkCoalesceCase(t, seed)
	}
}

// coalesceInputs are corpus-like unions: for each corpus case A, B the
// unions A ∪ B, (A \ B) ∪ B, A \ B, B \ A and the symmetric difference.
func coalesceInputs(t testing.TB) (names []string, sets []Set) {
	t.Helper()
	for _, c := range corpus.Cases {
		a, b := parseSetT(t, c.A), parseSetT(t, c.B)
		must := func(s Set, err error) Set {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			return s
		}
		amb := must(a.Subtract(b))
		bma := must(b.Subtract(a))
		add := func(kind string, s Set) {
			names = append(names, c.Name+"/"+kind)
			sets = append(sets, s)
		}
		add("A+B", must(a.Union(b)))
		add("(A-B)+B", must(amb.Union(b)))
		add("A-B", amb)
		add("B-A", bma)
		add("A^B", must(amb.Union(bma)))
	}
	return names, sets
}

// islCoalesceCounts records, for each corpus-like input of coalesceInputs,
// the number of disjuncts of the input as this package builds it and the
// number isl_set_coalesce (libisl 0.23) leaves on that printed input.
var islCoalesceCounts = map[string][2]int{
	"tiled-2d-domain/A+B": {2, 2}, "tiled-2d-domain/(A-B)+B": {7, 7}, "tiled-2d-domain/A-B": {6, 6},
	"tiled-2d-domain/B-A": {4, 4}, "tiled-2d-domain/A^B": {10, 10},
	"stencil-halo/A+B": {2, 1}, "stencil-halo/(A-B)+B": {5, 1}, "stencil-halo/A-B": {4, 4},
	"stencil-halo/B-A": {0, 0}, "stencil-halo/A^B": {4, 4},
	"blur-footprint/A+B": {2, 1}, "blur-footprint/(A-B)+B": {1, 1}, "blur-footprint/A-B": {0, 0},
	"blur-footprint/B-A": {2, 2}, "blur-footprint/A^B": {2, 2},
	"strided-downsample/A+B": {2, 1}, "strided-downsample/(A-B)+B": {3, 3}, "strided-downsample/A-B": {2, 2},
	"strided-downsample/B-A": {2, 0}, "strided-downsample/A^B": {4, 2},
	"jacobi-dependence/A+B": {2, 2}, "jacobi-dependence/(A-B)+B": {2, 2}, "jacobi-dependence/A-B": {1, 1},
	"jacobi-dependence/B-A": {7, 7}, "jacobi-dependence/A^B": {8, 8},
	"skewed-tile/A+B": {2, 2}, "skewed-tile/(A-B)+B": {2, 2}, "skewed-tile/A-B": {1, 1},
	"skewed-tile/B-A": {7, 7}, "skewed-tile/A^B": {8, 8},
	"gemm-tile-3d/A+B": {2, 2}, "gemm-tile-3d/(A-B)+B": {3, 3}, "gemm-tile-3d/A-B": {2, 2},
	"gemm-tile-3d/B-A": {10, 10}, "gemm-tile-3d/A^B": {12, 12},
	"upsample-interp/A+B": {3, 3}, "upsample-interp/(A-B)+B": {3, 3}, "upsample-interp/A-B": {1, 1},
	"upsample-interp/B-A": {8, 8}, "upsample-interp/A^B": {9, 9},
}

// TestCoalesceCorpusCounts logs the number of disjuncts after coalescing
// corpus-like inputs next to isl's (islCoalesceCounts) and fails when more
// remain than with isl on the same input. TILEFUSE_COALESCE_DUMP=file
// writes the inputs, one per line, to recount with isl.
func TestCoalesceCorpusCounts(t *testing.T) {
	names, sets := coalesceInputs(t)
	var dump []string
	before, after, islBefore, islAfter := 0, 0, 0, 0
	for i, s := range sets {
		c, err := s.Coalesce()
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if eq, err := c.IsEqual(s); err != nil || !eq {
			t.Fatalf("%s: coalesce changed the set (%v)\nin  = %s\nout = %s", names[i], err, s, c)
		}
		ref, ok := islCoalesceCounts[names[i]]
		same := ok && ref[0] == s.NumBasic()
		note := "input differs from the recorded one"
		if same {
			note = fmt.Sprintf("isl %d", ref[1])
			islBefore += ref[0]
			islAfter += ref[1]
			if c.NumBasic() > ref[1] {
				t.Errorf("%s: %d disjuncts after coalescing, isl leaves %d\nin  = %s\nout = %s", names[i], c.NumBasic(), ref[1], s, c)
			}
		}
		t.Logf("%-28s %3d -> %3d (%s)", names[i], s.NumBasic(), c.NumBasic(), note)
		before += s.NumBasic()
		after += c.NumBasic()
		dump = append(dump, "S "+s.String())
	}
	t.Logf("total disjuncts: %d before, %d after coalescing (isl: %d of the recorded %d)", before, after, islAfter, islBefore)
	if path := os.Getenv("TILEFUSE_COALESCE_DUMP"); path != "" {
		if err := os.WriteFile(path, []byte(strings.Join(dump, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func BenchmarkCoalesce(b *testing.B) {
	as, bs := corpusSets(b)
	for i, c := range corpus.Cases {
		u, err := as[i].Union(bs[i])
		if err != nil {
			b.Fatal(err)
		}
		d, err := as[i].Subtract(bs[i])
		if err != nil {
			b.Fatal(err)
		}
		v, err := d.Union(bs[i])
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range []struct {
			name string
			s    Set
		}{{"A+B", u}, {"(A-B)+B", v}} {
			b.Run(fmt.Sprintf("%s/%s", c.Name, in.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := in.s.Coalesce(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func TestCoalesceMapsAndUnions(t *testing.T) {
	m, err := ParseMap("{ A[i] -> B[j] : 0 <= i <= 3 and j = i + 1; A[i] -> B[j] : 4 <= i <= 9 and j = i + 1 }")
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Coalesce()
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := c.IsEqual(m); err != nil || !eq || c.NumBasic() != 1 {
		t.Errorf("map coalesce: %s -> %s", m, c)
	}
	u, err := ParseUnionSet("{ A[i] : 0 <= i <= 3; A[i] : 4 <= i <= 9; B[i, j] : i = 0 and 0 <= j <= 5; B[i, j] : i = 1 and 0 <= j <= 5 }")
	if err != nil {
		t.Fatal(err)
	}
	uc, err := u.Coalesce()
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := uc.IsEqual(u); err != nil || !eq {
		t.Errorf("union coalesce changed the set: %s -> %s", u, uc)
	}
	n := 0
	for _, s := range uc.Sets() {
		n += s.NumBasic()
	}
	if n != 2 {
		t.Errorf("union coalesce: %s has %d disjuncts, want 2", uc, n)
	}
	um, err := ParseUnionMap("{ A[i] -> B[i] : 0 <= i <= 3; A[i] -> B[i] : 4 <= i <= 9; A[i] -> C[] : i >= 0 }")
	if err != nil {
		t.Fatal(err)
	}
	umc, err := um.Coalesce()
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := umc.IsEqual(um); err != nil || !eq {
		t.Errorf("union map coalesce changed the map: %s -> %s", um, umc)
	}
}

// TestCoalesceLargeCoefficients checks that coalescing never fails or lies
// when the arithmetic gets close to int64 overflow.
func TestCoalesceLargeCoefficients(t *testing.T) {
	for _, src := range []string{
		"{ [x, y] : 0 <= x <= 4611686018427387903 and y = 0; [x, y] : 0 <= x <= 4611686018427387903 and y = 1 }",
		"{ [x, y] : 1000003x = 999983y + 1 and 0 <= x <= 10000000; [x, y] : 1000003x = 999983y + 1 and 10000001 <= x <= 20000000 }",
		"{ [x] : 3037000499 <= x <= 4611686018427387903; [x] : 0 <= x <= 3037000499 }",
	} {
		s := parseSetT(t, src)
		c, err := s.Coalesce()
		if err != nil {
			t.Logf("%s: %v (acceptable)", src, err)
			continue
		}
		if eq, err := c.IsEqual(s); err != nil {
			t.Logf("%s: IsEqual: %v", src, err)
		} else if !eq {
			t.Errorf("coalesce changed %s into %s", s, c)
		}
	}
}

// TestCoalesceWithin: with too few steps the pieces stay apart (the same
// set, no error); with enough, Coalesce's merge.
func TestCoalesceWithin(t *testing.T) {
	s := parseSetT(t, "[n] -> { [i, j] : 0 <= i <= 4 and 0 <= j <= n; [i, j] : 5 <= i <= 9 and 0 <= j <= n }")
	tests := []struct {
		name   string
		maxOps int64
		pieces int
	}{
		{"one step", 1, 2},
		{"the default budget", DefaultLimits.MaxOps, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.CoalesceWithin(tt.maxOps)
			if err != nil {
				t.Fatal(err)
			}
			if got.NumBasic() != tt.pieces {
				t.Errorf("%d pieces (%s), want %d", got.NumBasic(), got, tt.pieces)
			}
			if eq, err := got.IsEqual(s); err != nil || !eq {
				t.Errorf("%s is not %s (%v)", got, s, err)
			}
		})
	}
}
