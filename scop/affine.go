package scop

import (
	"strconv"
)

// AffineText writes e as a quasi-affine expression in isl notation over
// the iterator and parameter names, or reports why it is not one. Integer
// casts are transparent; multiplication needs a constant factor; FloorDiv
// and Mod need a positive constant divisor.
func AffineText(e Expr) (string, error) {
	switch e := e.(type) {
	case *Const:
		if e.T.IsFloat() {
			return "", Errorf(e.At, "floating-point value %s in an affine expression", e)
		}
		return strconv.FormatInt(e.I, 10), nil
	case *Iter:
		return e.Name, nil
	case *Param:
		return e.Name, nil
	case *Cast:
		if !e.T.IsInt() {
			return "", Errorf(e.At, "cast to %s in an affine expression", e.T)
		}
		return AffineText(e.X)
	case *Unary:
		if e.Op != Neg {
			break
		}
		x, err := AffineText(e.X)
		return "-(" + x + ")", err
	case *Binary:
		return affineBinary(e)
	case *Read:
		return "", Errorf(e.At, "array read %s in an affine expression", e)
	}
	return "", Errorf(e.Position(), "non-affine expression %s", e)
}

func affineBinary(e *Binary) (string, error) {
	x, err := AffineText(e.X)
	if err != nil {
		return "", err
	}
	y, err := AffineText(e.Y)
	if err != nil {
		return "", err
	}
	switch e.Op {
	case Add:
		return "(" + x + " + " + y + ")", nil
	case Sub:
		return "(" + x + " - " + y + ")", nil
	case Mul:
		if _, ok := ConstInt(e.X); ok {
			return "(" + x + ")*(" + y + ")", nil
		}
		if _, ok := ConstInt(e.Y); ok {
			return "(" + x + ")*(" + y + ")", nil
		}
		return "", Errorf(e.At, "non-affine product %s", e)
	case FloorDiv, Mod:
		d, ok := ConstInt(e.Y)
		if !ok || d <= 0 {
			return "", Errorf(e.At, "%s needs a positive constant divisor in %s", e.Op, e)
		}
		ds := strconv.FormatInt(d, 10)
		if e.Op == FloorDiv {
			return "floor((" + x + ")/" + ds + ")", nil
		}
		return "((" + x + ") mod " + ds + ")", nil
	case Min, Max:
		return e.Op.String() + "(" + x + ", " + y + ")", nil
	}
	return "", Errorf(e.At, "non-affine expression %s", e)
}

// ConstInt evaluates e when it is an integer expression of constants only.
func ConstInt(e Expr) (int64, bool) {
	switch e := e.(type) {
	case *Const:
		if e.T.IsFloat() {
			return 0, false
		}
		return e.I, true
	case *Cast:
		if !e.T.IsInt() {
			return 0, false
		}
		return ConstInt(e.X)
	case *Unary:
		x, ok := ConstInt(e.X)
		if !ok || e.Op != Neg {
			return 0, false
		}
		return -x, true
	case *Binary:
		x, ok1 := ConstInt(e.X)
		y, ok2 := ConstInt(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case Add:
			return x + y, true
		case Sub:
			return x - y, true
		case Mul:
			return x * y, true
		case FloorDiv:
			if y > 0 {
				return floorDiv(x, y), true
			}
		case Mod:
			if y > 0 {
				return x - y*floorDiv(x, y), true
			}
		case Min:
			return min(x, y), true
		case Max:
			return max(x, y), true
		}
	}
	return 0, false
}

// EvalAffine evaluates an integer expression of constants and parameters
// (an array extent, say) at the given parameter values.
func EvalAffine(e Expr, params map[string]int64) (int64, error) {
	switch e := e.(type) {
	case *Const:
		if !e.T.IsFloat() {
			return e.I, nil
		}
	case *Param:
		v, ok := params[e.Name]
		if !ok {
			return 0, Errorf(e.At, "no value for parameter %s", e.Name)
		}
		return v, nil
	case *Cast:
		if e.T.IsInt() {
			return EvalAffine(e.X, params)
		}
	case *Unary:
		if e.Op == Neg {
			x, err := EvalAffine(e.X, params)
			return -x, err
		}
	case *Binary:
		x, err := EvalAffine(e.X, params)
		if err != nil {
			return 0, err
		}
		y, err := EvalAffine(e.Y, params)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case Add:
			return x + y, nil
		case Sub:
			return x - y, nil
		case Mul:
			return x * y, nil
		case FloorDiv, Mod:
			if y <= 0 {
				return 0, Errorf(e.At, "non-positive divisor in %s", e)
			}
			if e.Op == FloorDiv {
				return floorDiv(x, y), nil
			}
			return x - y*floorDiv(x, y), nil
		case Min:
			return min(x, y), nil
		case Max:
			return max(x, y), nil
		}
	}
	return 0, Errorf(e.Position(), "%s is not an expression of constants and parameters", e)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
