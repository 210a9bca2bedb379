package presburger

import (
	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// eliminateByShadows removes one undefined local by Fourier-Motzkin when the
// Omega test proves that exact: the integer projection P lies between the
// dark shadow D and the real shadow R (D ⊆ P ⊆ R), so when every dark-shadow
// constraint is implied by R, P = R. A pair a*e >= L, b*e <= U has real
// shadow b*L <= a*U and dark shadow a*U - b*L >= (a-1)(b-1). It reports
// whether a local was eliminated.
func (b *basic) eliminateByShadows() bool {
	for k := len(b.divs) - 1; k >= 0; k-- {
		if b.divs[k].den != 0 || b.usedInEqOrDiv(k) {
			continue
		}
		c := b.divCol(k)
		lows, ups, rest := splitBounds(b.ineqs, c)
		if len(lows)*len(ups) > 64 {
			continue
		}
		real := append([][]int64(nil), rest...)
		var dark [][]int64
		for _, l := range lows {
			for _, u := range ups {
				row, _ := combine(l, u, c)
				real = append(real, row)
				// combine divides a*U - bb*L by g = gcd(a, bb): the dark
				// constraint a*U - bb*L >= (a-1)(bb-1) is g*row >= that.
				a, bb := l[c], arith.Neg(u[c])
				g := arith.GCD(a, bb)
				d := make([]int64, len(row))
				for j, v := range row {
					d[j] = arith.Mul(g, v)
				}
				d[0] = arith.Sub(d[0], arith.Mul(a-1, bb-1))
				dark = append(dark, d)
			}
		}
		shadow := b.clone()
		shadow.ineqs = real
		tab := shadow.tableau()
		exact := true
		for _, d := range dark {
			if tab.Empty() {
				break
			}
			snap := tab.Snapshot()
			tab.AddIneq(negRow(d, 1))
			implied := tab.Empty()
			tab.Rollback(snap)
			if !implied {
				exact = false
				break
			}
		}
		if !exact {
			continue
		}
		b.ineqs = real
		b.removeDiv(k)
		return true
	}
	return false
}
