package presburger

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// relsOf returns the rels of a parsed object by space key.
func relsOf(t *testing.T, v any) map[string]rel {
	t.Helper()
	out := map[string]rel{}
	add := func(r rel) { out[r.space.Key()] = r }
	switch v := v.(type) {
	case Set:
		add(v.r)
	case Map:
		add(v.r)
	case UnionSet:
		for _, r := range v.u.rels {
			add(r)
		}
	case UnionMap:
		for _, r := range v.u.rels {
			add(r)
		}
	default:
		t.Fatalf("unexpected parse result %T", v)
	}
	return out
}

// pts is a list of points [params..., in..., out...].
type pts [][]int64

type memberCase struct {
	src     string
	key     string // space key; "" when the object has a single space
	in, out pts
}

// checkMembers parses c.src and checks which points the object contains.
func checkMembers(t *testing.T, c memberCase) {
	t.Helper()
	v, err := Parse(c.src)
	if err != nil {
		t.Errorf("Parse(%q): %v", c.src, err)
		return
	}
	rels := relsOf(t, v)
	var r rel
	if c.key == "" {
		if len(rels) != 1 {
			t.Errorf("Parse(%q): %d spaces, want 1", c.src, len(rels))
			return
		}
		for _, x := range rels {
			r = x
		}
	} else if x, ok := rels[c.key]; ok {
		r = x
	} else {
		t.Errorf("Parse(%q): no space %s in %v", c.src, c.key, v)
		return
	}
	for _, p := range c.in {
		if !r.contains(p) {
			t.Errorf("Parse(%q) = %v: want %v in", c.src, r, p)
		}
	}
	for _, p := range c.out {
		if r.contains(p) {
			t.Errorf("Parse(%q) = %v: want %v out", c.src, r, p)
		}
	}
}

func TestParseMembership(t *testing.T) {
	for _, c := range []memberCase{
		// Tuples.
		{src: "{ [i] : 0 <= i < 10 }", in: pts{{0}, {9}}, out: pts{{-1}, {10}}},
		{src: "{ S[i, j] : 0 <= i <= j <= 3 }", in: pts{{0, 0}, {1, 3}}, out: pts{{2, 1}, {0, 4}}},
		{src: "{ S[] }", in: pts{{}}},
		{src: "{ [] : false }", out: pts{{}}},
		{src: "{ S[i, i] }", in: pts{{2, 2}}, out: pts{{2, 3}}},
		{src: "{ [i, j = i + 1] }", in: pts{{4, 5}}, out: pts{{4, 4}}},
		{src: "{ [i, 2i, 0, floor(i/2)] }", in: pts{{5, 10, 0, 2}, {-3, -6, 0, -2}}, out: pts{{5, 10, 0, 3}, {5, 10, 1, 2}}},
		{src: "[N] -> { [N, i] : i < N }", in: pts{{3, 3, 2}}, out: pts{{3, 2, 1}, {3, 3, 3}}},
		{src: "{ [A[i] -> B[j]] : i < j }", in: pts{{0, 1}}, out: pts{{1, 1}}},
		{src: "{ T[A[i] -> B[]] : i > 0 }", in: pts{{1}}, out: pts{{0}}},
		{src: "{ [[i] -> [j]] -> C[k] : k = i + j }", in: pts{{1, 2, 3}}, out: pts{{1, 2, 4}}},
		{src: "{ [i] -> [i + 1, i] }", in: pts{{3, 4, 3}}, out: pts{{3, 3, 3}}},
		{src: "{ [i] -> [i] }", in: pts{{3, 3}}, out: pts{{3, 4}}},
		{src: "{ A[i] -> [j] : j = 2i }", in: pts{{3, 6}}, out: pts{{3, 5}}},
		{src: "{ [i] -> [[j] -> [k]] : j = i and k = -i }", in: pts{{2, 2, -2}}, out: pts{{2, 2, 2}}},
		{src: "{ [i, j] -> S[] : i = j }", in: pts{{1, 1}}, out: pts{{1, 2}}},
		{src: "{ S[i'] : i' = 1 }", in: pts{{1}}, out: pts{{2}}},
		// isl's ranges name and bound a dimension or parameter; isl's
		// [e/k] is floor division; { : } is true.
		{src: "{ S[a = 0:2, b] : b = a }", in: pts{{0, 0}, {2, 2}}, out: pts{{3, 3}, {-1, -1}, {1, 2}}},
		{src: "[n] -> { [i, j = i:n] }", in: pts{{3, 1, 1}, {3, 1, 3}}, out: pts{{3, 1, 0}, {3, 1, 4}}},
		{src: "[s = 0:23, t] -> { [i] : i = s + t }", in: pts{{0, 1, 1}, {23, 0, 23}}, out: pts{{24, 0, 24}, {-1, 1, 0}}},
		{src: "[s = 0:2] -> { : }", in: pts{{0}, {2}}, out: pts{{3}}},
		{src: "{ : }", in: pts{{}}},
		{src: "{ [*, i] : i > 0 }", in: pts{{-7, 1}}, out: pts{{3, 0}}},
		{src: "{ [i] -> A[*] : i > 0 }", in: pts{{1, 9}}, out: pts{{0, 9}}},
		{src: "{ [i] : }", in: pts{{5}}},
		{src: "{ [i, j] : j = [(i - 1)/3] }", in: pts{{4, 1}, {0, -1}}, out: pts{{4, 0}, {3, 1}}},
		{src: "{ [i] : exists (e0 = [(i)/2]: 2e0 = i) }", in: pts{{4}, {-2}}, out: pts{{3}}},
		// Parameters.
		{src: "[N, M] -> { [i] : N <= i < M }", in: pts{{1, 3, 2}}, out: pts{{1, 3, 3}, {1, 3, 0}}},
		{src: "[N] -> { : N > 0 }", in: pts{{1}}, out: pts{{0}}},
		{src: "{ : 1 = 2 }", out: pts{{}}},
		{src: "[N] -> { : N >= 0 and exists (e : N = 2e) }", in: pts{{4}}, out: pts{{3}, {-2}}},
		// Comparisons.
		{src: "{ [i] : i = 3 }", in: pts{{3}}, out: pts{{2}}},
		{src: "{ [i] : i == 3 }", in: pts{{3}}, out: pts{{2}}},
		{src: "{ [i] : i != 3 }", in: pts{{2}, {4}}, out: pts{{3}}},
		{src: "{ [i] : i > 3 }", in: pts{{4}}, out: pts{{3}}},
		{src: "{ [i] : i >= 3 }", in: pts{{3}}, out: pts{{2}}},
		{src: "{ [i] : 3 > i }", in: pts{{2}}, out: pts{{3}}},
		{src: "{ [i, j] : 0 <= i, j < 3 }", in: pts{{0, 2}}, out: pts{{3, 0}, {0, -1}}},
		{src: "{ [i, j, k] : i, j <= k, 5 }", in: pts{{1, 2, 3}, {5, 5, 5}}, out: pts{{4, 1, 3}, {6, 6, 6}}},
		{src: "{ [i, j] : i < j < 5 >= i }", in: pts{{1, 4}}, out: pts{{1, 5}, {4, 4}}},
		// Connectives.
		{src: "{ [i] : i < 0 or i > 5 }", in: pts{{-1}, {6}}, out: pts{{0}, {5}}},
		{src: "{ [i] : i < 0 || i > 5 }", in: pts{{-1}, {6}}, out: pts{{0}}},
		{src: "{ [i] : i >= 0 && i <= 5 }", in: pts{{0}}, out: pts{{6}}},
		{src: "{ [i] : i >= 0 & i <= 5 | i = 9 }", in: pts{{0}, {9}}, out: pts{{6}}},
		{src: `{ [i] : i >= 0 /\ i <= 5 \/ i = 9 }`, in: pts{{0}, {9}}, out: pts{{6}}},
		{src: "{ [i] : not (i >= 3) and i >= 0 }", in: pts{{0}, {2}}, out: pts{{3}, {-1}}},
		{src: "{ [i] : !(i = 3) and 0 <= i <= 5 }", in: pts{{2}, {4}}, out: pts{{3}}},
		{src: "{ [i] : not i >= 3 }", in: pts{{2}}, out: pts{{3}}},
		{src: "{ [i] : i >= 0 implies i >= 5 }", in: pts{{-1}, {5}}, out: pts{{0}, {4}}},
		{src: "{ [i] : i > 0 implies i > 1 implies i > 2 }", in: pts{{0}, {1}, {3}}, out: pts{{2}}},
		{src: "{ [i, j] : (i >= 0 or j >= 0) and i + j <= 5 }", in: pts{{-3, 1}, {5, 0}}, out: pts{{-1, -1}, {3, 3}}},
		{src: "{ [i] : true }", in: pts{{7}}},
		{src: "{ [i] : false }", out: pts{{7}}},
		{src: "{ [i] : ((i >= 0)) and (i) <= 2 }", in: pts{{2}}, out: pts{{3}}},
		{src: "{ [i] : (i + 1) * 2 >= 4 }", in: pts{{1}}, out: pts{{0}}},
		{src: "{ [i] : not (i < 0 or i > 3) }", in: pts{{0}, {3}}, out: pts{{4}}},
		{src: "{ [i] : i >= 0 and not (i mod 2 = 0) }", in: pts{{1}, {3}}, out: pts{{2}, {-1}}},
		// Quantifiers.
		{src: "{ [i] : exists (e : i = 2e) }", in: pts{{4}, {-2}}, out: pts{{3}}},
		{src: "{ [i] : exists e : i = 3e + 1 }", in: pts{{4}, {-2}}, out: pts{{3}}},
		{src: "{ [i] : exists (e = floor(i/2): i = 2e) }", in: pts{{4}}, out: pts{{3}}},
		{src: "{ [i] : exists (e = floor(i/2), f: i = 2e and f = e and f >= 1) }", in: pts{{4}}, out: pts{{0}, {5}}},
		{src: "{ [i] : exists (e, f: i = 2e + 3f and e >= 0 and f >= 0) }", in: pts{{0}, {2}, {3}, {5}}, out: pts{{1}, {-1}}},
		{src: "{ [i] : exists (e : i = 3e or i = 5e) and 0 <= i <= 20 }", in: pts{{9}, {10}}, out: pts{{7}, {21}}},
		{src: "{ [i] : exists (e : e >= 0 and (i = e or i = -e) and e <= 2) }", in: pts{{-2}, {2}}, out: pts{{3}}},
		{src: "{ [i] : exists (e : exists (f : i = 2e and e = 3f)) }", in: pts{{6}, {-12}}, out: pts{{2}, {3}}},
		{src: "{ [i] : (exists (e : i = 2e)) or exists (e : i = 3e) }", in: pts{{4}, {9}}, out: pts{{5}}},
		{src: "{ [i] : exists (e : not (e >= 0) and i = e) }", in: pts{{-1}}, out: pts{{0}}},
		// Expressions.
		{src: "{ [i] : 2i + 3 = 7 }", in: pts{{2}}, out: pts{{3}}},
		{src: "{ [i, j] : 2(i + j) = 6 }", in: pts{{1, 2}}, out: pts{{1, 1}}},
		{src: "{ [i] : 2 * i * 3 = 12 }", in: pts{{2}}, out: pts{{3}}},
		{src: "{ [i] : i * -2 = -4 }", in: pts{{2}}, out: pts{{-2}}},
		{src: "{ [i] : -i = 3 }", in: pts{{-3}}, out: pts{{3}}},
		{src: "{ [i] : - -i = 3 }", in: pts{{3}}, out: pts{{-3}}},
		{src: "{ [i] : i - 2 - 1 = 0 }", in: pts{{3}}, out: pts{{-1}}},
		{src: "{ [i] : -i mod 3 = -1 }", in: pts{{1}, {4}}, out: pts{{2}}},
		{src: "{ [i] : i mod 3 = 1 }", in: pts{{1}, {-2}, {7}}, out: pts{{0}, {2}, {-1}}},
		{src: "{ [i] : i % 3 = 2 }", in: pts{{2}, {-1}}, out: pts{{0}}},
		{src: "{ [i, j] : (i + j) mod 2 = 0 }", in: pts{{1, 1}}, out: pts{{1, 2}}},
		{src: "{ [i, j] : i + j mod 2 = 1 }", in: pts{{0, 1}, {0, 3}, {1, 2}}, out: pts{{1, 1}, {2, 3}}},
		{src: "{ [i] : floor(i/3) = 1 }", in: pts{{3}, {5}}, out: pts{{2}, {6}}},
		{src: "{ [i] : floor((i)/3) = -1 }", in: pts{{-1}, {-3}}, out: pts{{0}, {-4}}},
		{src: "{ [i] : ceil(i/3) = 1 }", in: pts{{1}, {3}}, out: pts{{0}, {4}}},
		{src: "{ [i] : floord(i, 4) = 1 }", in: pts{{4}, {7}}, out: pts{{3}, {8}}},
		{src: "{ [i] : ceild(i - 1, 2) = 2 }", in: pts{{4}, {5}}, out: pts{{3}, {6}}},
		{src: "{ [i] : floor(i/2 + i/3) = 1 }", in: pts{{2}}, out: pts{{1}, {3}}},
		{src: "{ [i] : floor(floor(i/2)/2) = 1 }", in: pts{{4}, {7}}, out: pts{{3}, {8}}},
		{src: "{ [i] : floor(7/2) = i }", in: pts{{3}}, out: pts{{4}}},
		{src: "{ [i] : 3floor(i/3) = i }", in: pts{{6}}, out: pts{{7}}},
		{src: "{ [i] : 3*floor((i)/3) = i }", in: pts{{6}}, out: pts{{7}}},
		{src: "{ [i] : floor(i/4) * 4 = i }", in: pts{{8}}, out: pts{{7}}},
		{src: "{ [i] : floor(i/(1 + 1)) = 1 }", in: pts{{2}, {3}}, out: pts{{4}}},
		{src: "{ [i] : floor(2i/4) = 1 }", in: pts{{2}, {3}}, out: pts{{4}}},
		{src: "{ [i] : floor((i mod 4)/2) = 1 }", in: pts{{2}, {7}}, out: pts{{1}, {4}}},
		{src: "{ [i, j] : min(i, j) = 2 }", in: pts{{2, 5}, {5, 2}, {2, 2}}, out: pts{{1, 2}, {3, 3}}},
		{src: "{ [i, j] : max(i, j, 3) = 3 }", in: pts{{2, 3}, {0, 0}}, out: pts{{4, 0}}},
		{src: "{ [i] -> [min(i, 5)] : 0 <= i <= 10 }", in: pts{{2, 2}, {8, 5}}, out: pts{{8, 8}, {11, 5}}},
		{src: "{ [i] : floor(max(i, 0)/2) = 1 }", in: pts{{2}, {3}}, out: pts{{-2}, {4}}},
		{src: "{ [i] : min(i, 2) + max(i, 2) = 5 }", in: pts{{3}}, out: pts{{2}}},
		{src: "{ [i] : min(3, 5) = i }", in: pts{{3}}, out: pts{{5}}},
		{src: "{ [i] : 0 <= i <= 10 and i != min(i, 4) }", in: pts{{5}}, out: pts{{4}}},
		// Unions and comments.
		{src: "{ A[i] : i = 0; B[i, j] : i = j }", key: "A/1", in: pts{{0}}, out: pts{{1}}},
		{src: "{ A[i] : i = 0; B[i, j] : i = j }", key: "B/2", in: pts{{1, 1}}, out: pts{{0, 1}}},
		{src: "{ A[i] : i = 0; A[j] : j = 2; }", in: pts{{0}, {2}}, out: pts{{1}}},
		{src: "[N] -> { A[i] : i < N; B[j] : j > N }", key: "B/1", in: pts{{3, 4}}, out: pts{{3, 3}}},
		{src: "{ A[i] -> B[j] : j = i; A[i] -> C[] }", key: "A/1->C/0", in: pts{{5}}},
		{src: "# a comment\n{ [i] : # another\n i = 1 }", in: pts{{1}}, out: pts{{2}}},
	} {
		checkMembers(t, c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "1:1: expected '{' or '[' but found end of input"},
		{"{ S[i, j : i > 0 }", "1:10: expected ']' or ',' but found ':'"},
		{"{ [i] : i > 0", "1:14: expected ';' or '}' but found end of input"},
		{"{ [i] : i > }", "1:13: expected expression but found '}'"},
		{"{ [i] : i }", "1:11: expected comparison operator but found '}'"},
		{"{ [i] : j > 0 }", `1:9: unknown identifier "j"`},
		{"{ [i] : i > 0 and\n  k < 3 }", `2:3: unknown identifier "k"`},
		{"{ [i, j] : i * j >= 0 }", "1:14: non-affine product: one factor of '*' must be a constant"},
		{"{ [i] : i / 2 >= 0 }", "1:11: division is only allowed inside floor() or ceil()"},
		{"{ [i] : floor(i/0) = 0 }", "1:17: expected a positive integer constant"},
		{"{ [i] : i mod -2 = 0 }", "1:15: expected a positive integer constant"},
		{"{ [i] : floor(i/i) = 0 }", "1:17: expected a positive integer constant"},
		{"{ [i] : floor(i, 2) = 0 }", "1:9: floor takes 1 argument(s), not 2"},
		{"{ [i] : i @ 2 }", `1:11: unexpected character "@"`},
		{"[n = 0] -> { : }", "1:7: expected ':' but found ']'"},
		{"{ [i = 0:j] }", `1:10: unknown identifier "j"`},
		{"{ [i] : i = [(i)/2 }", "1:20: expected ']' but found '}'"},
		{"{ [i] : i = 99999999999999999999 }", "1:13: integer 99999999999999999999 does not fit in 64 bits"},
		{"{ [i]; [i] -> [j] }", "1:8: cannot mix a set and a map in one object"},
		{"{ [i]; : 1 = 1 }", "1:8: cannot mix a set and a parameter set in one object"},
		{"[N, N] -> { [i] }", "1:5: parameter N listed twice"},
		{"[N -> { [i] }", "1:4: expected ']' or ',' but found '->'"},
		{"[N] { [i] }", "1:5: expected '->' but found '{'"},
		{"{ S }", `1:3: expected tuple, ':' or '}' but found identifier "S"`},
		{"{ [i] [j] }", "1:7: expected '->', ':', ';' or '}' but found '['"},
		{"{ [i] -> [j] [k] }", "1:14: expected ':', ';' or '}' but found '['"},
		{"{ [A[i] B[j]] }", "1:9: expected '->' but found identifier \"B\""},
		{"{ [i] : exists (e i = 2e) }", "1:19: expected ',', ':' or '=' but found identifier \"i\""},
		{"{ [i] : exists (e : i = 2e }", "1:28: expected ')' but found '}'"},
		{"{ [i] : (i > 0 }", "1:16: expected ')' but found '}'"},
		{"{ [i] : (i + 1 > 0 }", "1:20: expected ')' but found '}'"},
		{"{ [i] : (i > 0) or }", "1:20: expected expression but found '}'"},
		{"{ [i] : exists (i : i = 5) }", `1:17: "i" is already defined`},
		{"[N] -> { [i] : exists (e, N : i = N) }", `1:27: "N" is already defined`},
		{"{ [i] : exists (e : exists (e : i = e)) }", `1:29: "e" is already defined`},
		{"{ [i] } x", `1:9: expected end of input but found identifier "x"`},
		{"{ [é] }", `1:4: unexpected character "é"`},
		{"{ [i] : i = ", "1:13: expected expression but found end of input"},
		{"{ [i] : 9223372036854775807i + 9223372036854775807i >= 0 }", "1:30: int64 overflow in add"},
	} {
		_, err := Parse(c.src)
		var got string
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Parse(%q):\n got  %s\n want %s", c.src, got, c.want)
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("Parse(%q): error %T is not a *ParseError", c.src, err)
		}
	}
}

func TestParseDeepNesting(t *testing.T) {
	for _, src := range []string{
		"{ [i] : " + strings.Repeat("(", 5000) + "i > 0" + strings.Repeat(")", 5000) + " }",
		"{ [i] : " + strings.Repeat("(", 5000) + "i" + strings.Repeat(")", 5000) + " > 0 }",
		"{ [i] : " + strings.Repeat("not ", 5000) + "i > 0 }",
		"{ [i] : i = " + strings.Repeat("-", 5000) + "1 }",
	} {
		_, err := Parse(src)
		if err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
			t.Errorf("deep nesting: got %v", err)
		}
	}
	src := "{ [i] : " + strings.Repeat("(", 100) + "i > 0" + strings.Repeat(")", 100) + " }"
	if _, err := Parse(src); err != nil {
		t.Errorf("100 parentheses: %v", err)
	}
}

func TestParseOverflowIsErrOverflow(t *testing.T) {
	_, err := Parse("{ [i] : 9223372036854775807i + 9223372036854775807i >= 0 }")
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("got %v, want an error matching ErrOverflow", err)
	}
}

func TestParseKinds(t *testing.T) {
	v, err := Parse("{ A[i]; B[j, k] }")
	if u, ok := v.(UnionSet); err != nil || !ok || len(u.u.rels) != 2 {
		t.Errorf("Parse union set: %T %v %v", v, v, err)
	}
	v, err = Parse("{ A[i] -> B[j] }")
	if _, ok := v.(UnionMap); err != nil || !ok {
		t.Errorf("Parse union map: %T %v", v, err)
	}
	v, err = Parse("[N] -> { : N > 0 }")
	if s, ok := v.(Set); err != nil || !ok || !s.r.space.IsParams {
		t.Errorf("Parse params: %T %v", v, err)
	}
	v, err = Parse("{ }")
	if u, ok := v.(UnionSet); err != nil || !ok || len(u.u.rels) != 0 {
		t.Errorf("Parse empty: %T %v", v, err)
	}

	s, err := ParseSet("[N] -> { S[i, j] : 0 <= i < N }")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(SetSpace([]string{"N"}, NewTuple("S", "i", "j")), s.r.space); diff != "" {
		t.Errorf("space (-want +got):\n%s", diff)
	}
	m, err := ParseMap("{ S[i] -> [i + 1, j = i, i] }")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(MapSpace(nil, NewTuple("S", "i"), NewTuple("", "", "j", "")), m.r.space); diff != "" {
		t.Errorf("space (-want +got):\n%s", diff)
	}
	nested, err := ParseSet("{ T[A[i] -> B[j]] }")
	if err != nil {
		t.Fatal(err)
	}
	want := SetSpace(nil, WrapTuples("T", NewTuple("A", "i"), NewTuple("B", "j")))
	if diff := cmp.Diff(want, nested.r.space); diff != "" {
		t.Errorf("space (-want +got):\n%s", diff)
	}
	if e, err := ParseSet("{ }"); err != nil || len(e.r.parts) != 0 || e.r.space.NOut() != 0 {
		t.Errorf("ParseSet empty: %v %v", e, err)
	}
	if e, err := ParseMap("[N] -> {  }"); err != nil || !e.r.space.IsMap || e.r.space.NParam() != 1 {
		t.Errorf("ParseMap empty: %v %v", e, err)
	}
	if p, err := ParseSet("[N] -> { : N > 0 }"); err != nil || !p.r.space.IsParams {
		t.Errorf("ParseSet params: %v %v", p, err)
	}

	for _, c := range []struct {
		name string
		fn   func(string) error
		src  string
		want string
	}{
		{"ParseSet", func(s string) error { _, err := ParseSet(s); return err }, "{ A[i]; B[i] }", "1:9: a set must lie in one space, found { A[i] } and { B[i] }"},
		{"ParseSet", func(s string) error { _, err := ParseSet(s); return err }, "{ A[i] -> B[i] }", "1:3: expected a set but found a map"},
		{"ParseMap", func(s string) error { _, err := ParseMap(s); return err }, "{ A[i] }", "1:3: expected a map but found a set"},
		{"ParseMap", func(s string) error { _, err := ParseMap(s); return err }, "{ A[i] -> B[]; A[i] -> C[] }", "1:16: a map must lie in one space, found { A[i] -> B[] } and { A[i] -> C[] }"},
		{"ParseUnionSet", func(s string) error { _, err := ParseUnionSet(s); return err }, "{ A[i] -> B[i] }", "1:3: expected a set but found a map"},
		{"ParseUnionSet", func(s string) error { _, err := ParseUnionSet(s); return err }, "[N] -> { : N > 0 }", "1:10: expected a set but found a parameter set"},
		{"ParseUnionMap", func(s string) error { _, err := ParseUnionMap(s); return err }, "{ A[i] }", "1:3: expected a map but found a set"},
	} {
		err := c.fn(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s(%q) = %v, want %s", c.name, c.src, err, c.want)
		}
	}
	if _, err := ParseUnionSet("{ A[i]; B[i] }"); err != nil {
		t.Error(err)
	}
	if _, err := ParseUnionMap("{ A[i] -> B[i]; A[i] -> C[] }"); err != nil {
		t.Error(err)
	}
}

func TestParsePrefix(t *testing.T) {
	for _, c := range []struct {
		src string
		n   int
	}{
		{"{ [i] }", 7},
		{"{ [i] } * { [j] }", 7},
		{"  # c\n[N] -> { [i] : i < N } @@ \"", 28},
		{"{ A[i] -> B[j] };", 16},
	} {
		_, n, err := ParsePrefix(c.src)
		if err != nil || n != c.n {
			t.Errorf("ParsePrefix(%q) = %d, %v; want %d", c.src, n, err, c.n)
		}
	}
	if _, _, err := ParsePrefix("{ [i] "); err == nil {
		t.Error("ParsePrefix of an unfinished object succeeded")
	}
}

// A plain conjunction becomes a single basic without going through rel
// operations; floors and exists variables become its locals.
func TestParseConjunctionIsOneBasic(t *testing.T) {
	for _, src := range []string{
		"[N] -> { S[i, j] -> A[i + 1, j] : 0 <= i < N and 0 <= j <= i and exists (e = floor(i/2): i = 2e) }",
		"{ [i, j] : i mod 4 = 1 and floor(j/3) >= i and exists (e, f : i = 2e + 3f and e >= 0 and f >= 0) }",
		"{ [i] : 0 <= i <= 10 and true }",
	} {
		s, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range relsOf(t, s) {
			if len(r.parts) != 1 {
				t.Errorf("Parse(%q) has %d basics, want 1: %v", src, len(r.parts), r)
			}
		}
	}
}

// Whatever the printer writes, the parser reads back as an equal object.
func TestParseRoundTrip(t *testing.T) {
	for _, src := range []string{
		"[N] -> { S[i, j] -> A[i + 1, j] : 0 <= i < N and exists (e = floor(i/2): i = 2e) }",
		"{ [i] : i mod 3 = 1 and 0 <= i <= 20 }",
		"{ [i] -> [min(i, 5)] : 0 <= i <= 10 }",
		"{ [i, j] : (i >= 0 or j >= 0) and i + j <= 5 }",
		"[N] -> { : N > 0 }",
		"{ [A[i] -> B[j]] : i < j; C[] }",
		"{ [i] : exists (e : i = 3e or i = 5e) and 0 <= i <= 20 }",
		"{ [i] : 0 <= i <= 10 and not (i mod 2 = 0) }",
		"[M, N] -> { [i] -> [j] : ceil(i/3) <= j <= floor((N + M)/4) }",
		"{ }",
	} {
		v, err := Parse(src)
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		printed := v.(interface{ String() string }).String()
		w, err := Parse(printed)
		if err != nil {
			t.Errorf("Parse(%q) printed %q which does not parse: %v", src, printed, err)
			continue
		}
		a, b := relsOf(t, v), relsOf(t, w)
		if len(a) != len(b) {
			t.Errorf("%q -> %q: %d spaces, then %d", src, printed, len(a), len(b))
			continue
		}
		for k, r := range a {
			s, ok := b[k]
			if !ok || !r.isEqual(s) {
				t.Errorf("%q printed as %q reads back as %v", src, printed, w)
			}
		}
	}
}

func BenchmarkParseForms(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"conjunction", "[N, M] -> { S[i, j, k] : 0 <= i < N and 0 <= j < M and 0 <= k <= i + j and exists (e = floor(i/2): i = 2e) }"},
		{"access", "[N] -> { S[i, j] -> A[i + 1, 2j - 1] : 0 <= i, j < N }"},
		{"union", "[N] -> { S1[i] : 0 <= i < N; S2[i, j] : 0 <= i < N and 0 <= j < i; S3[] }"},
		{"disjunction", "{ [i, j] : (0 <= i <= 10 or 20 <= i <= 30) and (j mod 3 = 0 or j = i) }"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bc.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
