package presburger

import (
	"strconv"
	"strings"
)

// String prints the function in isl notation, e.g.
// "[N] -> { [i] -> [(-1 + N)] : i >= 0; [i] -> [(0)] : i < 0 }" (for a
// set's optimum the domain is the parameter space:
// "[N] -> { [(-1 + N), (0)] : N > 0 }"). Each piece is "domain -> [(e),
// ...] : condition" with the domain tuple printed by name and divisions
// written inline, as isl prints an isl_pw_multi_aff.
func (pw PwMultiAff) String() string {
	var b strings.Builder
	b.WriteString(paramsPrefix(pw.Space.Params))
	b.WriteString("{ ")
	for i, p := range pw.Pieces {
		if i > 0 {
			b.WriteString("; ")
		}
		dom := p.Domain.r
		n := newNamer(dom.space)
		if pw.Space.IsMap {
			b.WriteString(n.header() + " -> ")
		}
		b.WriteString(p.Aff.format(n.vars))
		// An empty piece must not print as an unconditional one.
		if cond := dom.condition(n); cond != "" {
			b.WriteString(" : " + cond)
		}
	}
	b.WriteString(" }")
	return b.String()
}

// format prints the expressions over the variables vars (parameters, then
// domain dimensions) with their divisions inlined: "[(i - floor(i/2))]".
func (a MultiAff) format(vars []string) string {
	names := append([]string{""}, vars...)
	plain := make([]bool, len(names))
	order := make([]int, 0, len(names))
	for c := 1; c < len(names); c++ {
		plain[c] = true
		order = append(order, c)
	}
	for _, d := range a.Divs {
		num := affineText(d.Num, order, names, plain, false)
		if c := singleColumn(d.Num); c == 0 || !plain[c] {
			num = "(" + num + ")"
		}
		names = append(names, "floor("+num+"/"+strconv.FormatInt(d.Den, 10)+")")
		plain = append(plain, false)
		order = append(order, len(names)-1)
	}
	var parts []string
	for _, row := range a.Rows {
		parts = append(parts, "("+affineText(row, order, names, plain, false)+")")
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// singleColumn returns c if row is exactly column c (coefficient 1, no
// constant), else 0.
func singleColumn(row []int64) int {
	c := 0
	for j, v := range row {
		switch {
		case v == 0:
		case j > 0 && v == 1 && c == 0:
			c = j
		default:
			return 0
		}
	}
	return c
}
