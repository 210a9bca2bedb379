package bigprog

import (
	"fmt"
	"strings"
)

// Func is the name of the generated C function.
const Func = "unrolled"

// Width is the trip count of the small loops among the statements.
const Width = 8

// Source returns a C translation unit whose function Func has n
// statements in one sequence, in the shape of an unrolled filter: three
// statements in four are scalar assignments y[k] = f(x[k], x[k+1],
// y[k-1]) (a first-order recurrence, so neighbours depend on each other
// through y), the fourth is a loop of Width iterations writing row k/4 of
// z from y[k-1], w and x[k..k+Width-1]. Every statement writes its own
// elements; reads overlap their neighbours', so the dependences are a
// chain, linear in n, while a pairwise comparison is quadratic.
func Source(n int) string {
	var b strings.Builder
	rows := n/4 + 1
	fmt.Fprintf(&b, "void %s(double x[%d], double y[%d], double z[%d][%d], double w[%d])\n{\n",
		Func, n+Width+1, n+1, rows, Width, Width)
	b.WriteString("  int i;\n#pragma scop\n")
	for k := range n {
		if k%4 == 3 {
			fmt.Fprintf(&b, "  for (i = 0; i < %d; i++)\n    z[%d][i] = y[%d] * w[i] + x[%d + i];\n", Width, k/4, k-1, k)
			continue
		}
		if k == 0 {
			b.WriteString("  y[0] = 0.5 * x[0] + 0.25 * x[1];\n")
			continue
		}
		fmt.Fprintf(&b, "  y[%d] = 0.5 * x[%d] + 0.25 * x[%d] + 0.125 * y[%d];\n", k, k, k+1, k-1)
	}
	b.WriteString("#pragma endscop\n}\n")
	return b.String()
}
