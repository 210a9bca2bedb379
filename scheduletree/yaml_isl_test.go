package scheduletree

import (
	"slices"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

// TestYAMLISLForms reads the forms of isl's tree language that isl 0.25
// reads (checked against isl_schedule_read_from_str in
// internal/islref), checks what they mean, and that writing and reading
// back gives an equal tree.
func TestYAMLISLForms(t *testing.T) {
	const dom = "domain: \"[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 10 }\"\nchild:\n"
	band := func(opts string) string {
		return dom + "  schedule: \"[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]\"\n  options: \"" + opts + "\"\n"
	}
	D, A, U, S := OptionDefault, OptionAtomic, OptionUnroll, OptionSeparate
	tests := []struct {
		name, yaml string
		opts, iso  []Option // the band's options; nil: no band check
		isolate    string   // the isolate set, "" for none
		invalid    bool     // isl reads it, Validate refuses it
	}{
		{name: "every member", yaml: band("{ separate[i0] }"), opts: []Option{S, S}},
		{name: "every member, other name", yaml: band("{ atomic[x] }"), opts: []Option{A, A}},
		{name: "every member unroll", yaml: band("{ unroll[i0] : 0 <= i0 <= 1 }"), opts: []Option{U, U}},
		{name: "star", yaml: band("{ separate[*] }"), opts: []Option{S, S}},
		{name: "range", yaml: band("{ unroll[s = 0:23] }"), opts: []Option{U, U}},
		{name: "anonymous range", yaml: band("{ unroll[1:5] }"), opts: []Option{D, U}},
		{name: "some members", yaml: band("{ atomic[x] : x >= 1; unroll[0] }"), opts: []Option{U, A}},
		{name: "parameters", yaml: band("[N] -> { atomic[x] : x < N }"), opts: []Option{A, A}},
		{name: "out of range and default", yaml: band("{ unroll[5]; default[0]; separate[1] }"), opts: []Option{D, S}},
		{name: "unknown option", yaml: band("{ foo[1]; unroll[0, 1] }"), opts: []Option{D, D}},
		{name: "isolate", yaml: band("{ isolate[[] -> [x, y]] : 2 <= x <= 5 }"), opts: []Option{D, D},
			isolate: "{ isolate[[] -> [x, y]] : 2 <= x <= 5 }"},
		{name: "isolate with its options", yaml: band("[N] -> { isolate[[] -> [x, y]] : 2 <= x < N - 1; [isolate[] -> unroll[x]] : x = 1; separate[0] }"),
			opts: []Option{S, D}, iso: []Option{D, U}, isolate: "[N] -> { isolate[[] -> [x, y]] : 2 <= x < N - 1 }"},
		{name: "isolate below a band", yaml: dom + `  schedule: "[{ S[i, j] -> [(floor(i/4))] }]"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
    options: "[N] -> { isolate[[t] -> [x, y]] : 4t <= x <= 4t + 3 and 4t + 3 < N; [isolate[] -> separate[*]] }"
`},
		{name: "isolate of named tuples", yaml: band("{ isolate[[] -> A[x, y]] : x >= 2 }"), opts: []Option{D, D}},
		{name: "isolate sets of two depths", yaml: band("{ isolate[[t] -> [x, y]] : x >= t; isolate[[] -> [x, y]] : x >= 3 }"), opts: []Option{D, D},
			isolate: "{ isolate[[] -> [x, y]] : x >= 3 }"},
		{name: "isolate of another depth", yaml: band("{ isolate[[] -> [x]] : x >= 2 }"), opts: []Option{D, D}},
		{name: "leaf in a set", yaml: dom + "  set:\n  - leaf\n  - filter: \"{ S[i, j] }\"\n", invalid: true},
		{name: "flags as integers", yaml: dom + "  schedule: \"[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]\"\n  permutable: 2\n  coincident: [ -1, 0 ]\n"},
		{name: "context as a zero-dimensional set", yaml: dom + "  context: \"[N] -> { [] : N >= 4 }\"\n"},
		{name: "context on outer dimensions", yaml: dom + `  schedule: "[{ S[i, j] -> [(i)] }]"
  child:
    context: "[N] -> { [t] : 0 <= t < N and N <= 100 }"
    child:
      schedule: "[{ S[i, j] -> [(j)] }]"
`},
		{name: "backslash continuation", yaml: "domain: \"[N] -> { S[i, j] : 0 <= i < N and \\\n    0 <= j < 10 }\"\nchild:\n  schedule: \"[{ S[i, j] -> \\\n  [(i)] }]\"\n"},
		{name: "folded lines", yaml: "domain: \"[N] -> { S[i, j] : 0 <= i < N   \n    and 0 <= j < 10 }\"\nchild:\n  schedule: '[{ S[i, j] ->\n  [(i)] }]'\n"},
		{name: "tuple shorthands in sets", yaml: "domain: \"[N] -> { S[i, j = 0:9] : 0 <= i < N; T[0:2] }\"\nchild:\n  filter: \"{ S[*, *]; T[*] }\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := UnmarshalYAML([]byte(tt.yaml))
			if err != nil {
				t.Fatalf("%v\n%s", err, tt.yaml)
			}
			if tt.opts != nil {
				b := tr.Root().Child(0).Band()
				if !slices.Equal(b.Options, tt.opts) {
					t.Errorf("options %v, want %v", b.Options, tt.opts)
				}
				for k := range tt.opts {
					want := D
					if k < len(tt.iso) {
						want = tt.iso[k]
					}
					if got := b.IsolateOption(k); got != want {
						t.Errorf("isolated option %d is %v, want %v", k, got, want)
					}
				}
				switch {
				case tt.isolate == "" && b.Isolate != nil:
					t.Errorf("isolate %s, want none", *b.Isolate)
				case tt.isolate != "" && b.Isolate == nil:
					t.Errorf("no isolate, want %s", tt.isolate)
				case tt.isolate != "" && !equalSets(*b.Isolate, must(presburger.ParseSet(tt.isolate))):
					t.Errorf("isolate %s, want %s", *b.Isolate, tt.isolate)
				}
			}
			out, err := MarshalYAML(tr)
			if err != nil {
				t.Fatal(err)
			}
			back, err := UnmarshalYAML(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if eq, err := back.Equal(tr); err != nil || !eq {
				t.Errorf("read, write, read differs (%v):\n%s", err, out)
			}
			// The JSON form keeps it all too, and the tree is valid.
			js, err := Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			if jb, err := Unmarshal(js); err != nil {
				t.Errorf("%v\n%s", err, js)
			} else if eq, err := jb.Equal(tr); err != nil || !eq {
				t.Errorf("JSON round trip differs (%v):\n%s", err, js)
			}
			if err := Validate(tr); err != nil && !tt.invalid {
				t.Error(err)
			}
		})
	}
}

func TestISLSugar(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{ S[i] : i > 0 }", "{ S[i] : i > 0 }"},
		{"{ separate[*] }", "{ separate[r0] }"},
		{"[N] -> { S[s = 0:N] : N > 2; T[*, 1] }", "[N] -> { S[s] : (0) <= s <= (N) and ( N > 2) ; T[r0, 1] }"},
		{"{ [isolate[] -> unroll[1:2]] }", "{ [isolate[] -> unroll[r0]] : (1) <= r0 <= (2) }"},
	} {
		got := islSugar(tc.in)
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.want), " ") {
			t.Errorf("islSugar(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
