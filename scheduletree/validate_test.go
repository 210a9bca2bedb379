package scheduletree

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidateFixtures(t *testing.T) {
	for name, tr := range fixtures(t) {
		if err := Validate(tr); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// pathErrors returns the path and message of each error Validate joined.
func pathErrors(t *testing.T, err error) map[string]string {
	out := map[string]string{}
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else if err != nil {
		list = []error{err}
	}
	for _, e := range list {
		var pe *PathError
		if !errors.As(e, &pe) {
			t.Fatalf("not a *PathError: %v", e)
		}
		out[pe.Path.String()] += pe.Err.Error() + "\n"
	}
	return out
}

func TestValidateErrors(t *testing.T) {
	dom := uset(t, domST)
	for _, tc := range []struct {
		name string
		root *Node
		// want maps a path to a substring of its error.
		want map[string]string
	}{
		{"overlapping filters", NewDomain(dom, NewSequence(
			NewFilter(uset(t, "{ S[i, j] : i < 5 }"), nil),
			NewFilter(uset(t, "{ S[i, j] : i >= 3; T[i, j] }"), nil))),
			map[string]string{"/0": "filters 0 and 1 overlap on [N] -> { S[i, j] : 3 <= i <= 4"}},
		{"non-covering filters", NewDomain(dom, NewSet(
			NewFilter(uset(t, "{ S[i, j] : i < 5 }"), nil),
			NewFilter(uset(t, "{ T[i, j] }"), nil))),
			map[string]string{"/0": "no filter holds the reaching instances"}},
		{"partial band", NewDomain(dom, NewBand(band(t, "{ S[i, j] -> [i] : i < 3; T[i, j] -> [i] }", false), nil)),
			map[string]string{"/0": "not defined on the reaching instances"}},
		{"band not a function", NewDomain(dom, NewBand(band(t, "{ S[i, j] -> [o] : o = i or o = j; T[i, j] -> [i] }", false), nil)),
			map[string]string{"/0": "several values to the instances"}},
		{"band arity", NewDomain(dom, NewBand(band(t, "{ S[i, j] -> [i, j]; T[i, j] -> [i] }", false), nil)),
			map[string]string{"/0": "unnamed tuple of 2 members"}},
		{"named band tuple", NewDomain(dom, NewBand(band(t, "{ S[i, j] -> L[i]; T[i, j] -> L[i] }", false), nil)),
			map[string]string{"/0": "unnamed tuple"}},
		{"empty band", NewDomain(dom, NewBand(Band{Schedule: umap(t, "{ }")}, nil)),
			map[string]string{"/0": "at least one member"}},
		{"extension space", NewDomain(dom, NewBand(band(t, "{ S[i, j] -> [i, j]; T[i, j] -> [i, j] }", false),
			NewExtension(umap(t, "{ [a] -> U[a] }"), nil))),
			map[string]string{"/0/0": "prefix schedule space (2 unnamed dimensions)"}},
		{"guard space", NewDomain(dom, NewGuard(pset(t, "{ [a] : a > 0 }"), nil)),
			map[string]string{"/0": "prefix schedule space (0 unnamed dimensions)"}},
		{"context", NewDomain(dom, NewContext(pset(t, "{ [a] : a > 0 }"), nil)),
			map[string]string{"/0": "not a parameter set"}},
		{"sequence child", NewDomain(dom, NewSequence(NewFilter(dom, nil), NewMark("x", nil))),
			map[string]string{"/0/1": "must be filters"}},
		{"mark name", NewDomain(dom, NewMark("", nil)),
			map[string]string{"/0": "without a name"}},
		{"inner domain", NewDomain(dom, NewDomain(dom, nil)),
			map[string]string{"/0": "only be the root"}},
		{"extension instances uncovered", NewDomain(uset(t, "{ S[i] : 0 <= i < 4 }"), NewBand(band(t, "{ S[i] -> [i] }", false),
			NewExtension(umap(t, "{ [a] -> U[a] }"), NewSequence(NewFilter(uset(t, "{ S[i] }"), NewBand(band(t, "{ S[i] -> [i] }", false), nil)))))),
			map[string]string{"/0/0/0": "no filter holds the reaching instances { U[i0] : 0 <= i0 <= 3 }"}},
		{"expansion", NewDomain(uset(t, "{ C[c] : 0 <= c < 4 }"), NewExpansion(umap(t, "{ S[i] -> C[c] : 2c <= i <= 2c + 2 }"), umap(t, "{ C[c] -> S[2c] }"), nil)),
			map[string]string{"/0": "contraction is not a function"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := pathErrors(t, Validate(tree(t, tc.root)))
			var gotPaths, wantPaths []string
			for p := range got {
				gotPaths = append(gotPaths, p)
			}
			for p, msg := range tc.want {
				wantPaths = append(wantPaths, p)
				if !strings.Contains(got[p], msg) {
					t.Errorf("error at %s = %q, want it to contain %q", p, got[p], msg)
				}
			}
			if diff := cmp.Diff(wantPaths, gotPaths, cmp.Transformer("sort", func(s []string) map[string]bool {
				m := map[string]bool{}
				for _, x := range s {
					m[x] = true
				}
				return m
			})); diff != "" {
				t.Errorf("paths with errors (-want +got):\n%s\nerrors: %v", diff, got)
			}
		})
	}
}
