package trace

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func needGCC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
}

// islMacros is what isl_ast_node_print_macros prints; code may carry them.
const islMacros = `#define min(x,y)    ((x) < (y) ? (x) : (y))
#define max(x,y)    ((x) > (y) ? (x) : (y))
#define floord(n,d) (((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))
`

func TestRunC(t *testing.T) {
	needGCC(t)
	tests := []struct {
		name   string
		code   string
		params map[string]int64
		stmts  map[string]int
		want   []Instance
	}{{
		name:   "triangle then scalar",
		code:   "for (int c0 = 0; c0 < N; c0 += 1)\n  for (int c1 = 0; c1 <= c0; c1 += 1)\n    S(c0, c1);\nT();",
		params: map[string]int64{"N": 3},
		stmts:  map[string]int{"S": 2, "T": 0},
		want: []Instance{
			{"S", []int64{0, 0}}, {"S", []int64{1, 0}}, {"S", []int64{1, 1}},
			{"S", []int64{2, 0}}, {"S", []int64{2, 1}}, {"S", []int64{2, 2}}, {"T", []int64{}},
		},
	}, {
		name:   "helpers on negative values",
		code:   "for (int c0 = -4; c0 <= 4; c0 += 4)\n  F(c0, floord(c0 - 1, 3), ceild(c0 - 1, 3), intMod(c0 - 1, 3), min(c0, -1), max(c0, -1));",
		stmts:  map[string]int{"F": 6},
		params: map[string]int64{},
		want: []Instance{
			{"F", []int64{-4, -2, -1, 1, -4, -1}},
			{"F", []int64{0, -1, 0, 2, -1, 0}},
			{"F", []int64{4, 1, 1, 0, -1, 4}},
		},
	}, {
		name:   "isl's own macros",
		code:   islMacros + "for (int c0 = floord(-N, 2); c0 <= min(0, max(N, 1)); c0 += 1)\n  S(c0);",
		params: map[string]int64{"N": 3},
		stmts:  map[string]int{"S": 1},
		want:   []Instance{{"S", []int64{-2}}, {"S", []int64{-1}}, {"S", []int64{0}}},
	}, {
		name:   "nothing runs",
		code:   "if (N < 0)\n  S(N);",
		params: map[string]int64{"N": 3},
		stmts:  map[string]int{"S": 1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RunC(tt.code, tt.params, tt.stmts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RunC (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunCErrors(t *testing.T) {
	needGCC(t)
	tests := []struct {
		name  string
		code  string
		stmts map[string]int
		limit int
		want  string // in the error
		is    error
	}{
		{name: "limit", code: "for (int c0 = 0; c0 < 100; c0 += 1)\n  S(c0);", stmts: map[string]int{"S": 1}, limit: 10, want: "more than 10 instances", is: ErrLimit},
		{name: "limit not reached", code: "for (int c0 = 0; c0 < 10; c0 += 1)\n  S(c0);", stmts: map[string]int{"S": 1}, limit: 10},
		{name: "undeclared", code: "S(c9);", stmts: map[string]int{"S": 1}, limit: 10, want: "code.c:1:3: error: 'c9' undeclared"},
		{name: "arity", code: "S(1, 2);", stmts: map[string]int{"S": 1}, limit: 10, want: `macro "S" passed 2 arguments, but takes just 1`},
		{name: "bad statement name", code: "", stmts: map[string]int{"S-1": 1}, limit: 10, want: "bad statement S-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RunCLimit(tt.code, nil, tt.stmts, tt.limit)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("RunCLimit: %v", err)
			case tt.want == "":
			case err == nil:
				t.Fatalf("RunCLimit: no error, want %q", tt.want)
			case !strings.Contains(err.Error(), tt.want):
				t.Errorf("RunCLimit: error %q does not contain %q", err, tt.want)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Errorf("RunCLimit: error %q is not %v", err, tt.is)
			}
		})
	}
}
