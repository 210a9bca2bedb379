package scop

// LibraryCall reports whether fn, one of MathFuncs, is computed by a call
// to the C library (sinf, expf, ...: tens of cycles each) rather than by
// an instruction or two (sqrt, abs, min, max, floor, ceil, round); the
// library's results also differ from Go's math package in the last bits.
func LibraryCall(fn string) bool { return libraryCalls[fn] }

var libraryCalls = map[string]bool{
	"exp": true, "log": true, "pow": true, "sin": true, "cos": true, "tan": true,
	"tanh": true, "atan": true, "atan2": true, "exp2": true, "log2": true,
}

// CallsLibrary reports whether e calls a LibraryCall function.
func CallsLibrary(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if c, ok := x.(*Call); ok && LibraryCall(c.Fn) {
			found = true
		}
		return !found
	})
	return found
}

// binaryCost is four for a division or remainder, except an integer one
// by a constant (a shift or a multiplication), and one otherwise.
func binaryCost(e *Binary) int {
	switch e.Op {
	case Div, Rem, FloorDiv, Mod:
		if _, ok := ConstInt(e.Y); ok && e.T.IsInt() {
			return 1
		}
		return 4
	}
	return 1
}

// Cost counts the operations of e: one per arithmetic node, conversion
// and selection, four per division or remainder (one for an integer
// divided by a constant), eight per math call.
// Loads (with their subscripts), constants, iterators and parameters are
// free.
func Cost(e Expr) int {
	n := 0
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Binary:
			n += binaryCost(x)
		case *Unary, *Select, *Cast:
			n++
		case *Call:
			n += 8
		case *Read:
			return false // subscripts are address arithmetic
		}
		return true
	})
	return n
}
