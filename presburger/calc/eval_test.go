package calc

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// traceBackend records operations as terms, so tests see exactly which
// operation the evaluator chose for each operator and in which order the
// operands were passed. A literal is a map when its text contains "->"
// inside the braces; "{ bad }" fails at offset 2.
type traceBackend struct{}

func (traceBackend) Literal(src string) (Value, error) {
	if strings.Contains(src, "bad") {
		return Value{}, &LiteralError{Offset: strings.Index(src, "bad"), Msg: "bad literal"}
	}
	body := src[strings.Index(src, "{"):]
	kind := SetKind
	if strings.Contains(body, "->") {
		kind = MapKind
	}
	return Value{Kind: kind, X: strings.TrimSpace(strings.Trim(body, "{}"))}, nil
}

var traceResult = map[Op]Kind{OpIntersectDomain: MapKind, OpApplyRange: MapKind, OpApply: SetKind,
	OpReverse: MapKind, OpDomain: SetKind, OpRange: SetKind, OpDeltas: SetKind, OpParams: SetKind}

func (traceBackend) Do(op Op, args []Value) (Value, error) {
	if op == OpGist {
		return Value{}, errors.New("gist is not supported yet")
	}
	var parts []string
	for _, a := range args {
		parts = append(parts, fmt.Sprint(a.X))
	}
	term := op.String() + "(" + strings.Join(parts, ", ") + ")"
	if op == OpIsEqual || op == OpIsSubset {
		return Value{Kind: BoolKind, Bool: op == OpIsEqual}, nil
	}
	kind, ok := traceResult[op]
	if !ok {
		kind = args[0].Kind
	}
	return Value{Kind: kind, X: term}, nil
}

func (traceBackend) Format(v Value) string { return fmt.Sprintf("%v:%v", v.Kind, v.X) }

func runTrace(src string) (string, error) {
	prog, err := Parse("t.calc", src)
	if err != nil {
		return "", err
	}
	var out []string
	err = Run(prog, traceBackend{}, func(o Output) error {
		out = append(out, o.Text)
		return nil
	})
	return strings.Join(out, "\n"), err
}

func TestEvalDispatch(t *testing.T) {
	const defs = "S := { s }; T := { t }; M := { m -> m }; N := { n -> n };\n"
	tests := []struct{ src, want string }{
		{"S + T;", "set:union(s, t)"},
		{"M - N;", "map:subtract(m -> m, n -> n)"},
		{"S * T;", "set:intersect(s, t)"},
		{"M * N;", "map:intersect(m -> m, n -> n)"},
		{"M * S;", "map:intersect_domain(m -> m, s)"},
		{"M . N;", "map:apply_range(m -> m, n -> n)"},
		{"M(S);", "set:apply(s, m -> m)"},
		{"M^-1;", "map:reverse(m -> m)"},
		{"dom M; ran M; deltas M;", "set:domain(m -> m)\nset:range(m -> m)\nset:deltas(m -> m)"},
		{"lexmin S; lexmax M;", "set:lexmin(s)\nmap:lexmax(m -> m)"},
		{"coalesce M; sample S;", "map:coalesce(m -> m)\nset:sample(s)"},
		{"params M; params S;", "set:params(m -> m)\nset:params(s)"},
		{"S = T; M <= N;", "True\nFalse"},
		{"dom M * S;", "set:intersect(domain(m -> m), s)"},
		{"sample M(S);", "set:sample(apply(s, m -> m))"},
		{"X := S + T; X - S;", "set:subtract(union(s, t), s)"},
		{"S := S + T; S;", "set:union(s, t)"},
		{"M . N(S);", "error"}, // N(S) is a set
	}
	for _, tc := range tests {
		got, err := runTrace(defs + tc.src)
		if tc.want == "error" {
			if err == nil {
				t.Errorf("%q: got %q, want an error", tc.src, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.src, diff)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	const defs = "S := { s }; M := { m -> m };\n"
	tests := []struct{ src, want string }{
		{"X;", "t.calc:2:1: undefined name X"},
		{"S +\n  Y;", "t.calc:3:3: undefined name Y"},
		{"S * M;", "t.calc:2:3: * cannot intersect a set with a map; write map * set to restrict the map's domain"},
		{"S + M;", "t.calc:2:3: + cannot combine a set with a map"},
		{"S . S;", "t.calc:2:3: . joins two maps, not a set and a set"},
		{"S = M;", "t.calc:2:3: = cannot combine a set with a map"},
		{"(S = S) + S;", "t.calc:2:9: + cannot combine a boolean with a set"},
		{"dom S;", "t.calc:2:1: dom needs a map, not a set"},
		{"S^-1;", "t.calc:2:2: ^-1 needs a map, not a set"},
		{"sample (S <= S);", "t.calc:2:1: sample needs a set or a map, not a boolean"},
		{"S(M);", "t.calc:2:2: application F(X) needs a map F and a set X, not a set and a map"},
		{"S % S;", "t.calc:2:3: gist is not supported yet"},
		{"A := {\n  bad };", "t.calc:3:3: bad literal"},
	}
	for _, tc := range tests {
		_, err := runTrace(defs + tc.src)
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.src, diff)
		}
	}
}

// TestRunStopsAtError checks that values printed before an error are
// emitted and nothing after it is evaluated.
func TestRunStopsAtError(t *testing.T) {
	got, err := runTrace("S := { s }; S; X; S;")
	if err == nil || got != "set:s" {
		t.Errorf("got %q, %v; want \"set:s\" and an error", got, err)
	}
}

// TestErrorUnwrap checks that a backend's error survives for errors.Is, so
// callers can tell budget exhaustion from a wrong program.
func TestErrorUnwrap(t *testing.T) {
	_, err := runTrace("{ s } % { t };")
	var e *Error
	if !errors.As(err, &e) || e.Err == nil || e.Err.Error() != "gist is not supported yet" {
		t.Fatalf("error %#v does not wrap the backend's error", err)
	}
	if !errors.Is(err, e.Err) {
		t.Error("errors.Is does not see the backend's error")
	}
}
