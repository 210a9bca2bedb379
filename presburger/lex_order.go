package presburger

// The lexicographic order relations on the tuple of a space (isl's
// lex_lt and friends), whole or decided at one level: dependence analysis
// (package deps) orders statement instances by them.

// LexLT returns { x -> y : x <lex y } on the tuple of the set space sp
// (isl_map_lex_lt).
func LexLT(sp Space) Map { return Map{lexRelation(sp, -1, false, false)} }

// LexLE returns { x -> y : x <=lex y }.
func LexLE(sp Space) Map { return Map{lexRelation(sp, -1, true, false)} }

// LexGT returns { x -> y : x >lex y }.
func LexGT(sp Space) Map { return Map{lexRelation(sp, -1, false, true)} }

// LexGE returns { x -> y : x >=lex y }.
func LexGE(sp Space) Map { return Map{lexRelation(sp, -1, true, true)} }

// LexLTAt returns the part of LexLT decided at dimension level, which
// must lie in [0, dims): x and y agree before level and x_level < y_level.
// LexLT is the union over all levels; dataflow analysis takes them one by
// one, deepest first, since a candidate at a deeper level is always later.
func LexLTAt(sp Space, level int) Map {
	if level < 0 || level >= sp.NOut() {
		panic("presburger: LexLTAt: level out of range")
	}
	return Map{lexRelation(sp, level, false, false)}
}

// LexGTAt is LexLTAt reversed: x and y agree before level and x_level >
// y_level.
func LexGTAt(sp Space, level int) Map {
	if level < 0 || level >= sp.NOut() {
		panic("presburger: LexGTAt: level out of range")
	}
	return Map{lexRelation(sp, level, false, true)}
}

// lexRelation builds the order on sp's tuple level by level (only level
// when level >= 0); orEqual adds the diagonal, gt flips the comparison.
func lexRelation(sp Space, level int, orEqual, gt bool) rel {
	np, n := sp.NParam(), sp.NOut()
	out := emptyRel(MapSpace(sp.Params, sp.Out, sp.Out))
	for k := 0; k <= n; k++ {
		if (level >= 0 && k != level) || (k == n && !orEqual) {
			continue
		}
		b := newUniverse(np, n, n)
		for j := 0; j < k; j++ {
			row := make([]int64, b.nCol())
			row[1+np+j], row[1+np+n+j] = 1, -1
			b.eqs = append(b.eqs, row)
		}
		if k < n { // y_k - x_k - 1 >= 0, or x_k - y_k - 1 >= 0 for gt
			row := make([]int64, b.nCol())
			row[0], row[1+np+k], row[1+np+n+k] = -1, -1, 1
			if gt {
				row[1+np+k], row[1+np+n+k] = 1, -1
			}
			b.ineqs = append(b.ineqs, row)
		}
		out.parts = append(out.parts, b)
	}
	return out
}
