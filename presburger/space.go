package presburger

import (
	"strconv"
	"strings"
)

// Tuple is a named tuple of dimensions: S[i, j], an unnamed [i], or a wrapped
// relation [A[i] -> B[j]] (Nest set, Dims nil). Dimension names are kept for
// printing only; a space is identified by tuple names and shapes.
type Tuple struct {
	Name string
	Dims []string
	Nest *[2]Tuple
}

// NewTuple returns a flat tuple with the given name and dimension names.
func NewTuple(name string, dims ...string) Tuple {
	return Tuple{Name: name, Dims: append([]string(nil), dims...)}
}

// WrapTuples returns the tuple [dom -> ran] with an optional name.
func WrapTuples(name string, dom, ran Tuple) Tuple {
	return Tuple{Name: name, Nest: &[2]Tuple{dom, ran}}
}

// Len is the number of integer dimensions of the tuple (nested ones flattened).
func (t Tuple) Len() int {
	if t.Nest != nil {
		return t.Nest[0].Len() + t.Nest[1].Len()
	}
	return len(t.Dims)
}

// Key identifies the tuple's shape: name, arity and nesting, not dim names.
func (t Tuple) Key() string {
	if t.Nest != nil {
		return t.Name + "[" + t.Nest[0].Key() + "->" + t.Nest[1].Key() + "]"
	}
	return t.Name + "/" + strconv.Itoa(len(t.Dims))
}

// sameShape reports t.Key() == u.Key() without building the keys (unions
// and relation operations compare them often).
func (t Tuple) sameShape(u Tuple) bool {
	if t.Name != u.Name || (t.Nest == nil) != (u.Nest == nil) {
		return false
	}
	if t.Nest != nil {
		return t.Nest[0].sameShape(u.Nest[0]) && t.Nest[1].sameShape(u.Nest[1])
	}
	return len(t.Dims) == len(u.Dims)
}

// flatNames returns the dimension names of the tuple, nested ones flattened.
func (t Tuple) flatNames() []string {
	if t.Nest != nil {
		return append(t.Nest[0].flatNames(), t.Nest[1].flatNames()...)
	}
	return t.Dims
}

// withNames returns t with its flat dimension names replaced by names[:t.Len()].
func (t Tuple) withNames(names []string) Tuple {
	if t.Nest != nil {
		n := t.Nest[0].Len()
		return Tuple{Name: t.Name, Nest: &[2]Tuple{t.Nest[0].withNames(names[:n]), t.Nest[1].withNames(names[n:])}}
	}
	return Tuple{Name: t.Name, Dims: append([]string(nil), names[:len(t.Dims)]...)}
}

// anonymous returns a flat unnamed tuple of n dimensions.
func anonymous(n int) Tuple { return Tuple{Dims: make([]string, n)} }

// Space describes the parameters and tuples of a set (Out only) or a map (In -> Out).
type Space struct {
	Params []string
	In     Tuple
	Out    Tuple
	IsMap  bool
	// IsParams marks the space of a parameter set: no tuple at all.
	IsParams bool
}

// SetSpace returns the space of a set with the given parameters and tuple.
func SetSpace(params []string, t Tuple) Space {
	return Space{Params: append([]string(nil), params...), Out: t}
}

// MapSpace returns the space of a map with the given parameters and tuples.
func MapSpace(params []string, in, out Tuple) Space {
	return Space{Params: append([]string(nil), params...), In: in, Out: out, IsMap: true}
}

// NParam, NIn and NOut count the dimensions of each kind (NIn is 0 for sets).
func (s Space) NParam() int { return len(s.Params) }

// NIn is the number of input dimensions (0 for a set).
func (s Space) NIn() int {
	if !s.IsMap {
		return 0
	}
	return s.In.Len()
}

// NOut is the number of output (set) dimensions.
func (s Space) NOut() int { return s.Out.Len() }

// Key identifies the space in a union (parameters excluded).
func (s Space) Key() string {
	if s.IsParams {
		return ":params"
	}
	if s.IsMap {
		return s.In.Key() + "->" + s.Out.Key()
	}
	return s.Out.Key()
}

// ParamSpace returns the space of a parameter set.
func ParamSpace(params []string) Space {
	return Space{Params: append([]string(nil), params...), IsParams: true}
}

// sameKey reports s.Key() == t.Key() without building the keys.
func (s Space) sameKey(t Space) bool {
	if s.IsParams || t.IsParams {
		return s.IsParams == t.IsParams
	}
	if s.IsMap != t.IsMap || s.IsMap && !s.In.sameShape(t.In) {
		return false
	}
	return s.Out.sameShape(t.Out)
}

// sameTuples reports whether s and t have the same tuples (ignoring params and dim names).
func (s Space) sameTuples(t Space) bool { return s.sameKey(t) && s.IsMap == t.IsMap }

func (s Space) withParams(p []string) Space {
	s.Params = append([]string(nil), p...)
	return s
}

// String prints the space as isl does, e.g. "[N] -> { S[i] -> A[a] }".
func (s Space) String() string {
	var b strings.Builder
	if len(s.Params) > 0 {
		b.WriteString("[" + strings.Join(s.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	names := newNamer(s)
	b.WriteString(names.header())
	b.WriteString(" }")
	return b.String()
}

// alignParams returns the union of two parameter lists, a's order first.
func alignParams(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, p := range b {
		if indexOf(out, p) < 0 {
			out = append(out, p)
		}
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
