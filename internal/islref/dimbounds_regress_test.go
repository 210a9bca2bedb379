//go:build isl && cgo

package islref

import "testing"

// TestDimBoundsRegressions reruns the comparisons of TestDimBoundsVsISL
// on which tilefuse once failed where isl answers (a spurious
// ErrUnbounded, an int64 overflow, no answer within caseTimeout): the
// minimised sets, then every comparison of the original seeds. Each must
// agree with isl, or both libraries find the optimum unbounded.
func TestDimBoundsRegressions(t *testing.T) {
	tests := []struct {
		seed uint64
		set  string
		pos  int
		max  bool
	}{
		{9459, "[N] -> { [x0, x1, x2] : x2 >= 1 and (N - 16x1 + 2) mod 6 >= 5 }", 2, false},
		{5539, "[N] -> { [x0, x1] : floor((-3x1 - 4)/2) = 2x0 + 4 and (exists (e0 : x0 = 4e0 + 0) or 15x0 - 2x1 + 4 < -14x0 + 3) }", 1, true},
		{11759, "[M] -> { S[x0, x1] : (floor((-x0 - M + 4)/4) = -17x1 + 2 or exists (e0 = floor((-3x0 + 1)/2) : -2x1 + 4 <= 2e0 + 0)) and x0 <= 0; S[x0, x1] }", 0, true},
		{11759, "[M] -> { S[x0, x1] : floor((-x0 - M + 4)/4) = -17x1 + 2 and x0 <= 0 }", 0, true},
		{12764, "[N] -> { S[x0, x1, x2] : x1 <= 2x0 + 9 and x0 >= 1 and (2x0 + 3x2 + 5) mod 6 >= 4 and x2 <= 1 and x1 >= 0 and x2 >= -10N - 3 and 3x0 <= 16; S[x0, x1, x2] : x0 <= N + 2 and x2 <= 10 and x1 <= -2x0 + 8 and x1 >= -2 and x2 >= 6 and exists (e0 : x0 = 4e0 + 3) and x0 >= 2 }", 0, true},
		{12764, "[N] -> { S[x0, x1, x2] : x1 <= 2x0 + 9 and x0 >= 1 and (2x0 + 3x2 + 5) mod 6 >= 4 and x2 <= 1 and x1 >= 0 and x2 >= -10N - 3 and 3x0 <= 16; S[x0, x1, x2] : x0 <= N + 2 and x2 <= 10 and x1 <= -2x0 + 8 and x1 >= -2 and x2 >= 6 and exists (e0 : x0 = 4e0 + 3) and x0 >= 2 }", 1, true},
		{13449, "{ [x0, x1, x2] : exists (e0 : x2 = 6e0 + 1) and (-3x1 - x2 - 4) mod 4 <= 1 and x0 <= 11 }", 0, true},
		{14549, "[M] -> { S[x0] : exists (e0 = floor((-3M - x0 + 5)/6) : -M <= 6e0 + 0); S[x0] }", 0, true},
		{14549, "[M] -> { S[x0] : exists (e0 = floor((-3M - x0 + 5)/6) : -M <= 6e0 + 0) }", 0, true},
		{15689, "[N] -> { S[x0, x1, x2] : x1 >= -N - 5 and (-3x2 + 2N - 5) mod 4 = 3 and x1 <= -x0 + 6 }", 0, true},
		{15689, "[N] -> { S[x0, x1, x2] : x1 >= -N - 5 and (-3x2 + 2N - 5) mod 4 = 3 }", 1, false},
		{99, "{ [x0, x1] : (exists (e0, e1 : x0 = 2e0 + 5e1 and 0 <= e0 <= 1 and 0 <= e1 <= 2) or -2x0 = -2x0 - 4) and x1 >= -6 and 17x0 <= 103 and x0 >= 6 }", 1, false},
		{387, "[N] -> { S[x0, x1] : x1 >= 2 and x1 <= 14 and x0 >= -6 and exists (e0, e1 : x1 = 3e0 + 3e1 and 0 <= e0 <= 3 and 0 <= e1 <= 3) and exists (e0 : x1 = 5e0 + 0) }", 0, false},
		{520, "[M] -> { S[x0, x1] : floor((-x0 - 5)/6) = 3x1 + 1 and x0 >= -10M and x0 <= 0 and 2x1 >= 11 and -2x1 - 7 < 17x1 and x1 <= 15 }", 0, false},
	}
	check := func(seed uint64, src string, pos int, max bool) {
		t.Helper()
		if o, why := compareDimOpt(src, pos, max); o != agree && o != unbounded {
			t.Errorf("seed %d %s of %s: outcome %d\n%s", seed, dimOptName(pos, max), src, o, why)
		}
	}
	for _, tc := range tests {
		check(tc.seed, tc.set, tc.pos, tc.max)
	}
	for _, seed := range []uint64{99, 387, 400, 459, 520, 1305, 1829, 2799, 4744, 5539, 9459, 11759, 12764, 13449, 14549, 15689, 16179} {
		rs := dimBoundsSet(seed)
		for pos := range rs.dims {
			for _, max := range []bool{false, true} {
				check(seed, rs.String(), pos, max)
			}
		}
	}
}
