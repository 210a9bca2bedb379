package calc

import "fmt"

// Kind is the type of a value.
type Kind int

const (
	SetKind Kind = iota + 1
	MapKind
	BoolKind
	IntKind
)

func (k Kind) String() string {
	switch k {
	case SetKind:
		return "set"
	case MapKind:
		return "map"
	case BoolKind:
		return "boolean"
	case IntKind:
		return "integer"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Value is the result of an expression: a boolean, or a set or map held in
// X in the backend's own representation.
type Value struct {
	Kind Kind
	Bool bool
	Int  int64
	X    any
}

// Op is an operation whose operand kinds the evaluator has already checked;
// the comment gives the operands and the result.
type Op int

const (
	OpUnion           Op = iota // (set, set) or (map, map), same kind
	OpSubtract                  // same
	OpIntersect                 // same
	OpGist                      // same: the first simplified in the context of the second
	OpIntersectDomain           // (map, set) -> map
	OpApplyRange                // (map A, map B) -> map: B after A
	OpApply                     // (set S, map M) -> set: the image of S under M
	OpIsEqual                   // (set, set) or (map, map) -> boolean
	OpIsSubset                  // same
	OpReverse                   // map -> map
	OpDomain                    // map -> set
	OpRange                     // map -> set
	OpDeltas                    // map -> set
	OpLexMin                    // set -> set or map -> map
	OpLexMax                    // same
	OpCoalesce                  // same
	OpSample                    // same
	OpParams                    // set or map -> set (a parameter set)
	OpCard                      // set -> integer: the number of points (bounded, parameter-free)
)

var opNames = [...]string{OpUnion: "union", OpSubtract: "subtract", OpIntersect: "intersect",
	OpGist: "gist", OpIntersectDomain: "intersect_domain", OpApplyRange: "apply_range",
	OpApply: "apply", OpIsEqual: "is_equal", OpIsSubset: "is_subset", OpReverse: "reverse",
	OpDomain: "domain", OpRange: "range", OpDeltas: "deltas", OpLexMin: "lexmin",
	OpLexMax: "lexmax", OpCoalesce: "coalesce", OpSample: "sample", OpParams: "params", OpCard: "card"}

func (o Op) String() string { return opNames[o] }

// Backend evaluates literals and operations in some library.
type Backend interface {
	// Literal reads a set or map in isl notation. A *LiteralError locates
	// the problem inside src.
	Literal(src string) (Value, error)
	// Do performs op; the kinds of args are those in op's comment.
	Do(op Op, args []Value) (Value, error)
	// Format prints a set or map in isl notation.
	Format(v Value) string
}

// LiteralError is a problem at byte Offset of a literal's text.
type LiteralError struct {
	Offset int
	Msg    string
}

func (e *LiteralError) Error() string { return e.Msg }
