package loopc

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func trace(t *testing.T, code string, params map[string]int64, limit int) ([]string, error) {
	t.Helper()
	b, err := Parse(code)
	if err != nil {
		t.Fatalf("Parse(%q): %v", code, err)
	}
	var got []string
	err = Run(b, params, limit, func(name string, args []int64) error {
		got = append(got, name+fmt.Sprint(args))
		return nil
	})
	return got, err
}

func TestRun(t *testing.T) {
	tests := []struct {
		name, code string
		params     map[string]int64
		want       []string
	}{
		{"loop", "for (int c0 = 0; c0 <= n; c0 += 1)\n  S(c0, c0 + 1);", map[string]int64{"n": 2},
			[]string{"S[0 1]", "S[1 2]", "S[2 3]"}},
		{"stride and guard", "for (int c0 = 1; c0 < 8; c0 += 3) {\n  if (c0 >= 2)\n    A(c0);\n  else\n    B(-c0);\n}",
			nil, []string{"B[-1]", "A[4]", "A[7]"}},
		// C's / and % truncate; floord rounds down.
		{"division", "S(-7 / 2, -7 % 2, floord(-7, 2), floord(7, 2), 7 % 3);", nil, []string{"S[-3 -1 -4 3 1]"}},
		{"min max ternary", "S(min(3, n, 1), max(n, 4), n >= 2 ? 10 : 20, n == 1 || n > 5 && 0, !n);",
			map[string]int64{"n": 2}, []string{"S[1 4 10 0 0]"}},
		{"precedence", "S(1 + 2 * 3 - 4 / 2, (1 + 2) * 3, 1 < 2 == 1);", nil, []string{"S[5 9 1]"}},
		{"nested", "for (int c0 = 0; c0 <= 1; c0 += 1)\n  for (int c1 = c0; c1 <= 1; c1 += 1)\n    S(c0, c1);",
			nil, []string{"S[0 0]", "S[0 1]", "S[1 1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := trace(t, tt.code, tt.params, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("trace (-want +got):\n%s", diff)
			}
		})
	}
}

// An unbounded loop ("; 1;", as isl prints it) stops at the step limit
// after the instances before it.
func TestRunUnbounded(t *testing.T) {
	got, err := trace(t, "for (int c0 = 5; 1; c0 += 1)\n  S(c0);", nil, 6)
	if !errors.Is(err, ErrSteps) {
		t.Fatalf("err = %v, want ErrSteps", err)
	}
	if diff := cmp.Diff([]string{"S[5]", "S[6]", "S[7]"}, got); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
}

func TestRunErrors(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"S(n);", "unknown name n"},
		{"S(1 / 0);", "division by zero"},
		{"S(4611686018427387904 * 4);", "overflow"},
		{"for (int c0 = 0; c0 <= 1; c0 += 1)\n  for (int c0 = 0; c0 <= 1; c0 += 1)\n    S(c0);", "shadows"},
	} {
		_, err := trace(t, tt.code, nil, 100)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want %q", tt.code, err, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ code, want string }{
		{"S(1)", "at the end"},
		{"for (int c0 = 0; c0 < 2; c1 += 1) S(c0);", `1:26: the loop increments "c1"`},
		{"S(foo(1));", "unknown function foo"},
		{"S(1 $ 2);", `1:5: unexpected character '$'`},
		{"{ S(1);", "unclosed {"},
	} {
		_, err := Parse(tt.code)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want %q", tt.code, err, tt.want)
		}
	}
}
