package islcodegen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/internal/loopc"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// An .in input becomes a domain and one band of the time dimensions,
// with the options that hold at every time, and its code runs isl's
// expected instances.
func TestReadMapInput(t *testing.T) {
	in, err := ReadMapInput(`# isl's atomic.in
{ a[i] -> [i, 0] : 0 <= i < 10; b[i] -> [i+1, 1] : 0 <= i < 10 }
{ : }
{ [i, d] -> atomic[x] }`)
	if err != nil {
		t.Fatal(err)
	}
	band := in.Tree.Root().Child(0)
	if band.Kind() != scheduletree.KindBand {
		t.Fatalf("child of the domain is a %v, want a band", band.Kind())
	}
	if diff := cmp.Diff([]scheduletree.Option{scheduletree.OptionAtomic, scheduletree.OptionAtomic}, band.Band().Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	n, err := ast.Generate(in.Tree, ast.Options{Context: in.Context})
	if err != nil {
		t.Fatal(err)
	}
	code, err := loopc.Parse("for (int c0 = 0; c0 <= 10; c0 += 1) {\n  if (c0 <= 9)\n    a(c0);\n  if (c0 >= 1)\n    b(c0 - 1);\n}")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := RunAST(n, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	isl, err := RunISL(code, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	if o, why := Compare(ours, isl, in.Schedule, nil); o != Equal {
		t.Errorf("Compare = %v (%s), want equal", o, why)
	}
}

func TestReadMapInputRefusals(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"{ S[] -> [i] : 0 <= i <= 3 }\n{ : }\n{ }", "not a function"},
		{"{ S[i] -> [i] : 0 <= i <= 9 }\n{ : }\n{ [i] -> unroll[0] : i < 4 }", "unroll[0] holds at some times only"},
		{"{ S[i] -> [i] : 0 <= i <= 9 }\n{ : }\n{ [i] -> separation_class[[0] -> [0]] }", "option separation_class"},
		{"{ S[i] -> [i, 0]; T[i] -> [i] }\n{ : }\n{ }", "times of 2 and 1 dimensions"},
		{"{ S[i] -> [i] }\n{ [i] }\n{ }", "not a parameter set"},
		{"{ S[i] -> [i] }\n{ : }\n{ }\n{ }", "text after the options"},
	} {
		_, err := ReadMapInput(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadMapInput(%q) = %v, want %q", tt.src, err, tt.want)
		}
	}
}

func instances(s ...string) []trace.Instance {
	var out []trace.Instance
	for _, x := range s {
		name, args, _ := strings.Cut(strings.TrimSuffix(x, ")"), "(")
		in := trace.Instance{Stmt: name}
		for _, a := range strings.Split(args, ",") {
			if a = strings.TrimSpace(a); a != "" {
				var v int64
				for _, c := range a {
					v = 10*v + int64(c-'0')
				}
				in.Iter = append(in.Iter, v)
			}
		}
		out = append(out, in)
	}
	return out
}

func TestCompare(t *testing.T) {
	sched, err := presburger.ParseUnionMap("{ A[i] -> [i] : 0 <= i <= 1; B[i] -> [i] : 0 <= i <= 1; C[i] -> [i + 1] : 0 <= i <= 1 }")
	if err != nil {
		t.Fatal(err)
	}
	isl := Trace{Instances: instances("A(0)", "B(0)", "C(0)", "A(1)", "B(1)", "C(1)")}
	for _, tt := range []struct {
		name string
		ours Trace
		want Outcome
	}{
		{"same", Trace{Instances: instances("A(0)", "B(0)", "C(0)", "A(1)", "B(1)", "C(1)")}, Equal},
		// C(0) and A(1), B(1) share time 1.
		{"tied", Trace{Instances: instances("B(0)", "A(0)", "A(1)", "C(0)", "B(1)", "C(1)")}, EqualUpToTies},
		{"out of order", Trace{Instances: instances("A(1)", "A(0)", "B(0)", "C(0)", "B(1)", "C(1)")}, Different},
		{"missing", Trace{Instances: instances("A(0)", "B(0)", "C(0)", "A(1)", "B(1)")}, Different},
		{"stopped equal", Trace{Instances: instances("A(0)", "B(0)", "C(0)"), Stopped: true}, Equal},
		{"stopped tied", Trace{Instances: instances("B(0)", "A(0)", "A(1)"), Stopped: true}, EqualUpToTies},
		{"stopped different", Trace{Instances: instances("A(0)", "C(0)", "B(0)"), Stopped: true}, Different},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, why := Compare(tt.ours, isl, sched, nil); got != tt.want {
				t.Errorf("Compare = %v (%s), want %v", got, why, tt.want)
			}
		})
	}
	if got, _ := Compare(Trace{Instances: instances("A(0)")}, Trace{Instances: instances("A(0)", "B(0)"), Stopped: true}, sched, nil); got != Different {
		t.Errorf("a code that ends before the other's limit: %v, want different", got)
	}
}

func TestChoose(t *testing.T) {
	// want nil: two valuations in the context, found by sampling.
	for _, tt := range []struct {
		ctx  string
		n    int
		want []map[string]int64
	}{
		{"[n] -> { : n >= 3 }", 2, []map[string]int64{{"n": 4}, {"n": 5}}},
		{"[m, n] -> { : n = 6 and m >= 7 }", 2, nil},
		{"[n] -> { : n = 1000 }", 1, []map[string]int64{{"n": 1000}}},
	} {
		ctx, err := presburger.ParseSet(tt.ctx)
		if err != nil {
			t.Fatal(err)
		}
		p := Params{Names: ctx.Space().Params, Context: []presburger.Set{ctx}}
		got, err := p.Choose(2)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != tt.n {
			t.Errorf("%s: Choose = %v, want %v", tt.ctx, got, tt.want)
			continue
		}
		for _, v := range got {
			if ok, _ := p.holds(v); !ok {
				t.Errorf("%s: %v is outside the context", tt.ctx, v)
			}
		}
		if tt.want != nil && !cmp.Equal(got, tt.want) {
			t.Errorf("%s: Choose = %v, want %v", tt.ctx, got, tt.want)
		}
	}
}
