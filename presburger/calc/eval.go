package calc

import (
	"errors"
	"fmt"
)

func (s *Session) errorf(p Pos, format string, args ...any) error {
	return &Error{File: s.file, Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// wrap reports a backend's error at p, keeping it for errors.Is.
func (s *Session) wrap(p Pos, err error) error {
	return &Error{File: s.file, Pos: p, Msg: err.Error(), Err: err}
}

// Eval evaluates an expression in the session's bindings.
func (s *Session) Eval(e Expr) (Value, error) {
	switch e := e.(type) {
	case *Literal:
		v, err := s.b.Literal(e.Src)
		if err != nil {
			var le *LiteralError
			if errors.As(err, &le) && le.Offset >= 0 && le.Offset <= len(e.Src) {
				return Value{}, s.wrap(e.Pos.after(e.Src[:le.Offset]), err)
			}
			return Value{}, s.wrap(e.Pos, err)
		}
		if v.Kind != SetKind && v.Kind != MapKind {
			return Value{}, s.errorf(e.Pos, "internal error: literal read as a %v", v.Kind)
		}
		return v, nil
	case *Name:
		v, ok := s.env[e.Name]
		if !ok {
			return Value{}, s.errorf(e.Pos, "undefined name %s", e.Name)
		}
		return v, nil
	case *Unary:
		x, err := s.Eval(e.X)
		if err != nil {
			return Value{}, err
		}
		op, kind, err := unarySig(e.Op, x.Kind)
		if err != nil {
			return Value{}, s.errorf(e.Pos, "%v", err)
		}
		return s.do(e.Pos, op, kind, x)
	case *Binary:
		x, err := s.Eval(e.X)
		if err != nil {
			return Value{}, err
		}
		y, err := s.Eval(e.Y)
		if err != nil {
			return Value{}, err
		}
		op, kind, err := binarySig(e.Op, x.Kind, y.Kind)
		if err != nil {
			return Value{}, s.errorf(e.Pos, "%v", err)
		}
		return s.do(e.Pos, op, kind, x, y)
	case *Call:
		f, err := s.Eval(e.F)
		if err != nil {
			return Value{}, err
		}
		arg, err := s.Eval(e.Arg)
		if err != nil {
			return Value{}, err
		}
		if f.Kind != MapKind || arg.Kind != SetKind {
			return Value{}, s.errorf(e.Pos, "application F(X) needs a map F and a set X, not a %v and a %v", f.Kind, arg.Kind)
		}
		return s.do(e.Pos, OpApply, SetKind, arg, f)
	}
	return Value{}, s.errorf(e.Position(), "internal error: unknown expression %T", e)
}

// do runs op in the backend and checks that the result has the promised kind.
func (s *Session) do(p Pos, op Op, kind Kind, args ...Value) (Value, error) {
	v, err := s.b.Do(op, args)
	if err != nil {
		return Value{}, s.wrap(p, err)
	}
	if v.Kind != kind {
		return Value{}, s.errorf(p, "internal error: %v returned a %v, want a %v", op, v.Kind, kind)
	}
	return v, nil
}

// mapOnlyOps are the unary operators defined on maps only.
var mapOnlyOps = map[UnOp]struct {
	op   Op
	kind Kind
}{Inverse: {OpReverse, MapKind}, Dom: {OpDomain, SetKind}, Ran: {OpRange, SetKind}, Deltas: {OpDeltas, SetKind}}

// sameKindOps are the binary operators on two sets or two maps.
var sameKindOps = map[BinOp]Op{Union: OpUnion, Subtract: OpSubtract, Intersect: OpIntersect, Gist: OpGist}

// unarySig gives the operation and result kind of a unary operator.
func unarySig(u UnOp, x Kind) (Op, Kind, error) {
	if s, ok := mapOnlyOps[u]; ok {
		if x != MapKind {
			return 0, 0, fmt.Errorf("%v needs a map, not a %v", u, x)
		}
		return s.op, s.kind, nil
	}
	if x == BoolKind || x == IntKind {
		return 0, 0, fmt.Errorf("%v needs a set or a map, not a %v", u, x)
	}
	switch u {
	case LexMin:
		return OpLexMin, x, nil
	case LexMax:
		return OpLexMax, x, nil
	case Coalesce:
		return OpCoalesce, x, nil
	case Sample:
		return OpSample, x, nil
	case Params:
		return OpParams, SetKind, nil
	case Card:
		if x != SetKind {
			return 0, 0, fmt.Errorf("card needs a set, not a %v", x)
		}
		return OpCard, IntKind, nil
	}
	return 0, 0, fmt.Errorf("unknown operator %v", u)
}

// binarySig gives the operation and result kind of a binary operator.
func binarySig(b BinOp, x, y Kind) (Op, Kind, error) {
	bad := fmt.Errorf("%v cannot combine a %v with a %v", b, x, y)
	if x == BoolKind || y == BoolKind || x == IntKind || y == IntKind {
		return 0, 0, bad
	}
	switch b {
	case Union, Subtract, Intersect, Gist:
		if x == y {
			return sameKindOps[b], x, nil
		}
		if b == Intersect && x == MapKind && y == SetKind {
			return OpIntersectDomain, MapKind, nil
		}
		if b == Intersect {
			return 0, 0, fmt.Errorf("* cannot intersect a set with a map; write map * set to restrict the map's domain")
		}
	case Join:
		if x == MapKind && y == MapKind {
			return OpApplyRange, MapKind, nil
		}
		return 0, 0, fmt.Errorf(". joins two maps, not a %v and a %v", x, y)
	case Equal:
		if x == y {
			return OpIsEqual, BoolKind, nil
		}
	case Subset:
		if x == y {
			return OpIsSubset, BoolKind, nil
		}
	}
	return 0, 0, bad
}
