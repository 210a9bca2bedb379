package simplex

import "testing"

// TestEntriesChargeRows: adding a constraint over variables that are
// rows of the tableau (after equalities) costs the entries it combines,
// so that a capped budget stops a loop that builds large tableaus again
// and again, even with pivots to spare.
func TestEntriesChargeRows(t *testing.T) {
	const nVar = 8
	// x0 = x1 + 1, x2 = x3 + 1, ...: the even variables become rows.
	var eqs, ineqs [][]int64
	for v := 0; v < nVar; v += 2 {
		e := make([]int64, 1+nVar)
		e[0], e[1+v], e[2+v] = -1, 1, -1
		eqs = append(eqs, e)
	}
	for k := range 300 {
		r := make([]int64, 1+nVar)
		r[0] = int64(k)
		for v := range nVar {
			r[1+v] = 1
		}
		ineqs = append(ineqs, r)
	}
	build := func(b *Budget) (exceeded bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(BudgetExceeded); !ok {
					panic(r)
				}
				exceeded = true
			}
		}()
		tab, _ := newSystem(eqs, ineqs, nVar, b)
		tab.Release()
		return false
	}
	if build(&Budget{Ops: 1 << 40, Entries: 1 << 40, CapEntries: true}) {
		t.Fatal("a generous budget was exceeded")
	}
	if !build(&Budget{Ops: 1 << 40, Entries: 1000, CapEntries: true}) {
		t.Error("300 constraints over 4 row variables stayed within 1000 entries")
	}
}
