package calc

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tilefuse/tilefuse/presburger"
)

// Tilefuse is the Backend of package presburger: sets are
// presburger.UnionSet and maps presburger.UnionMap.
type Tilefuse struct{}

// Literal parses src with presburger.Parse. A parameter set such as
// [N] -> { : N > 0 } becomes a UnionSet, so that it combines with others.
func (Tilefuse) Literal(src string) (Value, error) {
	obj, err := presburger.Parse(src)
	if err != nil {
		var pe *presburger.ParseError
		if errors.As(err, &pe) {
			return Value{}, &LiteralError{Offset: byteOffset(src, pe.Line, pe.Col), Msg: pe.Msg}
		}
		return Value{}, err
	}
	switch o := obj.(type) {
	case presburger.UnionSet:
		return Value{Kind: SetKind, X: o}, nil
	case presburger.UnionMap:
		return Value{Kind: MapKind, X: o}, nil
	case presburger.Set:
		u, err := presburger.UnionSetFromSets(o)
		return Value{Kind: SetKind, X: u}, err
	}
	return Value{}, fmt.Errorf("internal error: presburger.Parse returned %T", obj)
}

// byteOffset converts a 1-based line and rune column into a byte offset.
func byteOffset(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(src); c++ {
		_, n := utf8.DecodeRuneInString(src[off:])
		off += n
	}
	return off
}

func (Tilefuse) Format(v Value) string { return fmt.Sprint(v.X) }

func (Tilefuse) Do(op Op, args []Value) (Value, error) {
	if args[0].Kind == MapKind {
		m := args[0].X.(presburger.UnionMap)
		return mapOp(op, m, args[1:])
	}
	s := args[0].X.(presburger.UnionSet)
	return setOp(op, s, args[1:])
}

func set(s presburger.UnionSet, err error) (Value, error) {
	return Value{Kind: SetKind, X: s}, err
}

func umap(m presburger.UnionMap, err error) (Value, error) {
	return Value{Kind: MapKind, X: m}, err
}

func boolean(b bool, err error) (Value, error) { return Value{Kind: BoolKind, Bool: b}, err }

// paramSet turns the Set that Params returns into a UnionSet.
func paramSet(p presburger.Set, err error) (Value, error) {
	if err != nil {
		return Value{}, err
	}
	return set(presburger.UnionSetFromSets(p))
}

func setOp(op Op, s presburger.UnionSet, rest []Value) (Value, error) {
	var t presburger.UnionSet
	var m presburger.UnionMap
	if len(rest) > 0 {
		switch x := rest[0].X.(type) {
		case presburger.UnionSet:
			t = x
		case presburger.UnionMap:
			m = x
		}
	}
	switch op {
	case OpUnion:
		return set(s.Union(t))
	case OpSubtract:
		return set(s.Subtract(t))
	case OpIntersect:
		return set(s.Intersect(t))
	case OpIsEqual:
		return boolean(s.IsEqual(t))
	case OpIsSubset:
		return boolean(s.IsSubset(t))
	case OpApply:
		return set(s.Apply(m))
	case OpSample:
		return set(s.Sample())
	case OpParams:
		return paramSet(s.Params())
	case OpGist:
		return set(s.Gist(t))
	case OpLexMin:
		return set(s.LexMin())
	case OpLexMax:
		return set(s.LexMax())
	case OpCoalesce:
		return set(s.Coalesce())
	case OpCard:
		n, err := s.Count()
		return Value{Kind: IntKind, Int: n}, err
	}
	return Value{}, fmt.Errorf("internal error: %v on a set", op)
}

func mapOp(op Op, m presburger.UnionMap, rest []Value) (Value, error) {
	var n presburger.UnionMap
	var s presburger.UnionSet
	if len(rest) > 0 {
		switch x := rest[0].X.(type) {
		case presburger.UnionSet:
			s = x
		case presburger.UnionMap:
			n = x
		}
	}
	switch op {
	case OpUnion:
		return umap(m.Union(n))
	case OpSubtract:
		return umap(m.Subtract(n))
	case OpIntersect:
		return umap(m.Intersect(n))
	case OpIsEqual:
		return boolean(m.IsEqual(n))
	case OpIsSubset:
		return boolean(m.IsSubset(n))
	case OpIntersectDomain:
		return umap(m.IntersectDomain(s))
	case OpApplyRange:
		return umap(m.ApplyRange(n))
	case OpReverse:
		return umap(m.Reverse())
	case OpDomain:
		return set(m.Domain())
	case OpRange:
		return set(m.Range())
	case OpDeltas:
		return set(m.Deltas())
	case OpSample:
		return umap(m.Sample())
	case OpParams:
		return paramSet(m.Params())
	case OpGist:
		return umap(m.Gist(n))
	case OpLexMin:
		return umap(m.LexMin())
	case OpLexMax:
		return umap(m.LexMax())
	case OpCoalesce:
		return umap(m.Coalesce())
	}
	return Value{}, fmt.Errorf("internal error: %v on a map", op)
}
