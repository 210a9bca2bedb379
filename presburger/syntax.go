package presburger

// The syntax tree of isl's notation. Positions are byte offsets into the
// source; build.go turns a tree into sets and maps and reports its semantic
// errors (unknown identifiers, non-affine products) at these positions.

// astObject is `[params] -> { disjunct; ... }`.
type astObject struct {
	pos    int
	params []astIdent
	parts  []*astDisjunct
	ranges []astRange
	end    int // offset just past the closing '}'
}

// astRange is a parameter's range `[p = lo:hi]`.
type astRange struct {
	param  int
	lo, hi astExpr
}

type astIdent struct {
	pos  int
	name string
}

// astDisjunct is `in -> out : cond`; in is nil for a set, out too for a
// parameter-only set. cond is nil when there is no ':'.
type astDisjunct struct {
	pos  int
	in   *astTuple
	out  *astTuple
	cond astFormula
}

// astTuple is `Name[e, ...]` or a wrapped relation `Name[dom -> ran]`.
type astTuple struct {
	pos     int
	name    string
	entries []astEntry
	nest    *[2]*astTuple
}

// astEntry is one tuple entry: `i` (name only), `i = e`, or an expression.
type astEntry struct {
	pos  int
	name string  // "" for a pure expression
	expr astExpr // nil for a bare name
	hi   astExpr // with a name: the range name = expr:hi
}

// Formulas.
type (
	astFormula interface{ fpos() int }

	astBool struct {
		pos int
		val bool
	}
	astNot struct {
		pos int
		x   astFormula
	}
	// astBinary is `and`, `or` or `implies` (op is tAnd, tOr or tImplies).
	astBinary struct {
		pos  int
		op   tokKind
		x, y astFormula
	}
	astExists struct {
		pos  int
		vars []astEntry // name, with an optional definition in expr
		body astFormula
	}
	// astCompare is a chain `l0 op0 l1 op1 l2 ...`; each operand is a comma
	// list and each link relates all pairs of its two lists.
	astCompare struct {
		pos   int
		lists [][]astExpr
		ops   []token
	}
)

func (f *astBool) fpos() int    { return f.pos }
func (f *astNot) fpos() int     { return f.pos }
func (f *astBinary) fpos() int  { return f.pos }
func (f *astExists) fpos() int  { return f.pos }
func (f *astCompare) fpos() int { return f.pos }

// Expressions.
type (
	astExpr interface{ epos() int }

	astInt struct {
		pos int
		val int64
	}
	astVar struct {
		pos  int
		name string
	}
	astNeg struct {
		pos int
		x   astExpr
	}
	// astArith is x op y for op in + - * / % mod (mod uses tMod, % tPercent).
	astArith struct {
		pos  int
		op   tokKind
		x, y astExpr
	}
	// astCall is floor, ceil, floord, ceild, min or max (fn is its keyword).
	astCall struct {
		pos  int
		fn   tokKind
		args []astExpr
	}
)

func (e *astInt) epos() int   { return e.pos }
func (e *astVar) epos() int   { return e.pos }
func (e *astNeg) epos() int   { return e.pos }
func (e *astArith) epos() int { return e.pos }
func (e *astCall) epos() int  { return e.pos }
