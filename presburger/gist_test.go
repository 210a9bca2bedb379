package presburger

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/internal/corpus"
)

func TestGistExamples(t *testing.T) {
	tests := []struct {
		name, a, ctx, want string
	}{
		{"drop implied bound", "{ A[i] : 0 <= i <= 10 }", "{ A[i] : i >= 0 }", "{ A[i] : i <= 10 }"},
		{"everything implied", "{ A[i] : 0 <= i <= 10 }", "{ A[i] : 2 <= i <= 5 }", "{ A[i] }"},
		{"disjoint context", "{ A[i] : 0 <= i <= 10 }", "{ A[i] : i >= 20 }", "{ A[i] : false }"},
		{"equality implied", "{ A[i, j] : i = j and 0 <= i <= 5 }", "{ A[i, j] : i = j }", "{ A[i, j] : 0 <= i <= 5 }"},
		{"parametric", "[N] -> { A[i] : 0 <= i < N and N >= 1 }", "[N] -> { A[i] : N >= 1 }", "[N] -> { A[i] : 0 <= i < N }"},
		{"union context", "{ A[i] : 0 <= i <= 1 }", "{ A[i] : i = 0; A[i] : i = 1 }", "{ A[i] }"},
		{"disjunct dropped", "{ A[i] : 0 <= i <= 3; A[i] : 10 <= i <= 12 }", "{ A[i] : i <= 5 }", "{ A[i] : 0 <= i <= 3 }"},
		{"stride kept", "{ A[i] : i mod 2 = 0 and 0 <= i <= 10 }", "{ A[i] : 0 <= i <= 10 }", "{ A[i] : i mod 2 = 0 }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, c := parseSetT(t, tc.a), parseSetT(t, tc.ctx)
			g, err := a.Gist(c)
			if err != nil {
				t.Fatal(err)
			}
			checkGist(t, a, c, g)
			if diff := cmp.Diff(tc.want, g.String()); diff != "" {
				t.Errorf("gist(%s, %s) (-want +got):\n%s", a, c, diff)
			}
		})
	}
}

// checkGist verifies g ∩ c == a ∩ c exactly.
func checkGist(t *testing.T, a, c, g Set) {
	t.Helper()
	x, err := g.Intersect(c)
	if err != nil {
		t.Fatal(err)
	}
	y, err := a.Intersect(c)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := x.IsEqual(y); err != nil || !eq {
		t.Fatalf("gist(%s, %s) = %s: g ∩ c != a ∩ c (%v)", a, c, g, err)
	}
}

func TestGistParams(t *testing.T) {
	a := parseSetT(t, "[N, M] -> { A[i] : 0 <= i < N and N >= 1 and M >= 0 }")
	ctx := parseSetT(t, "[N] -> { : N >= 1 }")
	g, err := a.GistParams(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("[N, M] -> { A[i] : M >= 0 and 0 <= i < N }", g.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := a.GistParams(a); err == nil {
		t.Errorf("GistParams with a non-parameter context: no error")
	}
}

func TestGistRandom(t *testing.T) {
	const B = 4
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		params := []string{"N"}[:rng.Intn(2)]
		dims := []string{"x", "y"}[:1+rng.Intn(2)]
		sp := SetSpace(params, NewTuple("S", dims...))
		a, c := randRel(rng, sp, 0), randCoalesceRel(rng, sp, B)
		if rng.Intn(2) == 0 {
			c = randRel(rng, sp, 0)
		}
		var g rel
		err := func() (err error) {
			defer catch(&err)
			g = a.gist(c)
			return nil
		}()
		if err != nil {
			t.Logf("seed %d: %v (acceptable)", seed, err)
			continue
		}
		points(len(params)+len(dims), B+2, func(pt []int64) {
			if !c.contains(pt) {
				return
			}
			if got, want := g.contains(pt), a.contains(pt); got != want {
				t.Fatalf("seed %d at %v: gist %v, a %v\na = %s\nc = %s\ngist = %s", seed, pt, got, want, a, c, g)
			}
		})
		if !g.intersect(c).isEqual(a.intersect(c)) {
			t.Fatalf("seed %d: g ∩ c != a ∩ c\na = %s\nc = %s\ngist = %s", seed, a, c, g)
		}
	}
}

func BenchmarkGist(b *testing.B) {
	benchEach(b, func(_ int, a, c Set) error { _, err := a.Gist(c); return err })
	_ = corpus.Cases
}

func TestGistMapsAndUnions(t *testing.T) {
	m, err := ParseMap("[N] -> { A[i] -> B[j] : 0 <= i < N and j = i + 1 and N >= 1 }")
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := ParseMap("[N] -> { A[i] -> B[j] : i >= 0 and N >= 1 }")
	if err != nil {
		t.Fatal(err)
	}
	g, err := m.Gist(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("[N] -> { A[i] -> B[j = 1 + i] : i < N }", g.String()); diff != "" {
		t.Errorf("map gist (-want +got):\n%s", diff)
	}
	x, _ := g.Intersect(ctx)
	y, _ := m.Intersect(ctx)
	if eq, err := x.IsEqual(y); err != nil || !eq {
		t.Errorf("map gist %s wrong", g)
	}
	pc, err := ParseSet("[N] -> { : N >= 1 }")
	if err != nil {
		t.Fatal(err)
	}
	gp, err := m.GistParams(pc)
	if err != nil {
		t.Fatal(err)
	}
	if gp.NumBasic() != 1 || len(gp.r.parts[0].ineqs) != 2 {
		t.Errorf("GistParams(%s) = %s, want N >= 1 dropped", m, gp)
	}
	u, err := ParseUnionSet("{ A[i] : 0 <= i <= 10; B[i] : 0 <= i <= 5 }")
	if err != nil {
		t.Fatal(err)
	}
	uc, err := ParseUnionSet("{ A[i] : i >= 0 }")
	if err != nil {
		t.Fatal(err)
	}
	ug, err := u.Gist(uc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("{ A[i] : i <= 10 }", ug.String()); diff != "" {
		t.Errorf("union gist (-want +got):\n%s", diff)
	}
	ugp, err := u.GistParams(parseSetT(t, "[M] -> { : M >= 0 }"))
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := ugp.IsEqual(u); err != nil || !eq {
		t.Errorf("GistParams with a universe context changed %s into %s", u, ugp)
	}
}
