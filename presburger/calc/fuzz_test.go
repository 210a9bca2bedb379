package calc

import (
	"errors"
	"testing"
)

// FuzzCalc checks that no input makes the calculator panic: every problem
// must come back as an error, and a syntax error as an *Error.
func FuzzCalc(f *testing.F) {
	for _, s := range []string{
		"S := [N] -> { A[i] : 0 <= i < N }; M := { A[i] -> A[i + 1] }; M(S); dom M; S <= M(S);",
		"{ A[i] -> B[j] : exists (e = floor(i/2) : j = 2e) }^-1 . { B[j] -> C[j] };",
		"params sample deltas { A[i] -> A[i + 2] : i mod 3 = 1 };",
		"A := { [i] : }; A; ( A",
		"[N] -> { : N > 0 } = { }; # comment",
		"{ A[i] : i >= 0 and i <= 9 } - { A[5] } * { A[i] } + { B[] };",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := Parse("fuzz", src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error %v is a %T, want *Error", err, err)
			}
			return
		}
		err = Run(prog, Tilefuse{}, func(Output) error { return nil })
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("Run error %v is a %T, want *Error", err, err)
		}
	})
}
