package scheduletree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestYAMLGoldenAndRoundTrip(t *testing.T) {
	trees := goldenTrees(t)
	for _, name := range sortedNames(trees) {
		t.Run(name, func(t *testing.T) {
			tr := trees[name]
			data, err := MarshalYAML(tr)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".yaml", data)
			back, err := UnmarshalYAML(data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if eq, err := back.Equal(tr); err != nil || !eq {
				t.Errorf("UnmarshalYAML(MarshalYAML(t)) differs from t (%v)\n%s", err, data)
			}
		})
	}
}

// islFlow is what isl_schedule_to_str prints (isl 0.25).
const islFlow = `{ domain: "[N] -> { T[i] : 0 <= i < N; S[i, j] : 0 <= i < N and 0 <= j < N }", child: { sequence: [ { filter: "{ S[i, j] }", child: { schedule: "[N] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]", permutable: 1, coincident: [ 1, 0 ] } }, { filter: "{ T[i] }", child: { schedule: "[{ T[i] -> [(floor((i)/4))] }]" } } ] } }`

const blockForm = `# the same tree in block style, with comments and other quoting
domain: '[N] -> { T[i] : 0 <= i < N; S[i, j] : 0 <= i < N and 0 <= j < N }'
child:
    sequence:
      -   filter: "{ S[i, j] }"   # a filter
          child:
            schedule: "[N] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
            coincident: [1,
                         0]
            permutable: true
      - filter: "{ T[i] }"
        child: {schedule: "[{ T[i] -> [(floor((i)/4))] }]"}
`

func TestYAMLReadForms(t *testing.T) {
	want := tree(t, NewDomain(uset(t, "[N] -> { T[i] : 0 <= i < N; S[i, j] : 0 <= i < N and 0 <= j < N }"), NewSequence(
		NewFilter(uset(t, "{ S[i, j] }"), NewBand(band(t, "{ S[i, j] -> [i, j] }", true, true, false), nil)),
		NewFilter(uset(t, "{ T[i] }"), NewBand(band(t, "{ T[i] -> [floor(i/4)] }", false), nil)),
	)))
	for name, src := range map[string]string{"flow": islFlow, "block": blockForm} {
		got, err := UnmarshalYAML([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if eq, err := got.Equal(want); err != nil || !eq {
			y, _ := MarshalYAML(got)
			t.Errorf("%s: read %s", name, y)
		}
	}
}

func TestYAMLMarkLeaf(t *testing.T) {
	tr := tree(t, NewDomain(uset(t, "{ S[i] : 0 <= i < 4 }"), NewMark("skipped", nil)))
	data, err := MarshalYAML(tr)
	if err != nil {
		t.Fatal(err)
	}
	// isl's reader needs the child of a mark; "leaf" is its explicit leaf.
	want := "domain: \"{ S[i] : 0 <= i <= 3 }\"\nchild:\n  mark: \"skipped\"\n  child: leaf\n"
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// isl prints it without the child; both read back.
	for _, src := range []string{string(data), "domain: \"{ S[i] : 0 <= i < 4 }\"\nchild:\n  mark: \"skipped\"\n"} {
		back, err := UnmarshalYAML([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if eq, _ := back.Equal(tr); !eq {
			t.Errorf("%q reads to a different tree", src)
		}
	}
}

func TestYAMLBandNotation(t *testing.T) {
	for _, tc := range []struct {
		sched   string
		want    string
		members int
	}{
		{"[N] -> [{ S[i] -> [(i)] : i < N - 2; S[i] -> [(N)] : i >= N - 2; T[i, j] -> [(i + j)] }, { S[i] -> [(0)]; T[i, j] -> [(-j)] }]",
			"[N] -> { S[i] -> [i, 0] : i < N - 2; S[i] -> [N, 0] : i >= N - 2; T[i, j] -> [i + j, -j] }", 2},
		{"L[{ S[i, j] -> [(i - (i) mod 32)] }, { S[i, j] -> [((j) mod 16)] }]", "{ S[i, j] -> [i - i mod 32, j mod 16] }", 2},
		{"[{ S[i] -> [(floor((i)/2))] : (i) mod 3 = 0 }]", "{ S[i] -> [floor(i/2)] : i mod 3 = 0 }", 1},
		// A statement missing from a member has no schedule.
		{"[{ S[i] -> [(i)]; T[i] -> [(i)] }, { S[i] -> [(0)] }]", "{ S[i] -> [i, 0] }", 2},
	} {
		m, n, err := readMUPA(tc.sched)
		if err != nil {
			t.Fatalf("%s: %v", tc.sched, err)
		}
		if n != tc.members {
			t.Errorf("%s: %d members", tc.sched, n)
		}
		mapEqual(t, tc.sched, m, tc.want)
		// And back: the writer's text reads to the same map.
		var text string
		func() {
			defer catch(&err)
			text = writeMUPA(m, n)
		}()
		if err != nil {
			t.Fatal(err)
		}
		m2, _, err := readMUPA(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		mapEqual(t, "rewritten "+text, m2, tc.want)
	}
	for _, bad := range []string{"[]", "[{ S[i] -> [(i), (i)] }]", "{ S[i] -> [(i)] }", "[{ S[i] -> [(i)] }, ]x", "[{ S[i] -> [(i)] } { S[i] -> [(i)] }]"} {
		if _, _, err := readMUPA(bad); err == nil {
			t.Errorf("readMUPA(%q) succeeded", bad)
		}
	}
}

func TestYAMLWriteNotAFunction(t *testing.T) {
	tr := tree(t, NewDomain(uset(t, "{ S[i] : 0 <= i < 4 }"), NewBand(band(t, "{ S[i] -> [o] : i <= o <= i + 1 }", false), nil)))
	if _, err := MarshalYAML(tr); err == nil || !strings.Contains(err.Error(), "not a function") {
		t.Errorf("MarshalYAML of a relation: %v", err)
	}
}

func TestYAMLErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"domain: \"{ S[i] }\nchild: x", "1:9: unterminated string"},
		{"domain: \"{ S[i] }\"\ndomain: \"{ }\"", "2:1: duplicate key \"domain\""},
		{"domain: \"{ S[i] }\"\n   child: x", "bad indentation"},
		{"domain: \"{ S[i] }\"\nchild:\n  colour: 1", "3:3: unknown node with keys [colour]"},
		{"domain: \"{ S[i] }\"\nchild:\n  mark: \"x\"\n  filter: \"{ }\"", "4:11: a mark node has no key \"filter\""},
		{"domain: \"{ S[i }\"", "1:9:"},
		{"domain: \"{ S[i] }\"\nchild:\n  schedule: \"[{ S[i] -> [(i)] }]\"\n  coincident: [ 1, 0 ]", "coincident must be a list of 1 flags"},
		{"domain: \"{ S[i] }\"\nchild:\n  schedule: \"[{ S[i] -> [(i)] }]\"\n  options: \"{ unroll[x]; separate[0] }\"", "conflicting loop type options"},
		{"domain: \"{ S[i] }\"\nchild:\n  schedule: \"[{ S[i] -> [(i)] }]\"\n  permutable: maybe", "expected 0 or 1"},
		{"{ domain: \"{ S[i] }\", child: { sequence: [ { filter: \"{ S[i] }\" } }", "',' or ']' expected"},
		{"filter: \"{ S[i] }\"", "root of a tree must be a domain"},
		{"", "empty document"},
		{"domain: \"{ B[i] : 0 <= i < 4 }\"\nchild:\n  schedule: \"[{ B[i] -> [(U)] }]\"", "3:13: schedule"},
		{"domain: \"{ B[i] : 0 <= i < 4 }\"\nchild:\n  schedule: \"[{ B[i] -> [(U)] }]\"", "is not a function"},
		{"domain: \"{ S[i] }\"\nchild:\n  mark: \"\x8d\"", "3:10: the text is not valid UTF-8"},
		{"domain: \"{ A[c] : c = 0 }\"\nchild:\n  contraction: \"{ A[0] -> A[(a)] }\"\n  expansion: \"{ }\"", "is not a function"},
	} {
		_, err := UnmarshalYAML([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("UnmarshalYAML(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}
