package scheduletree

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// UnmarshalYAML reads a schedule tree in isl's YAML form, block or flow
// style (as written by MarshalYAML, isl's printer or isl_schedule_to_str).
// The root must be a domain node.
func UnmarshalYAML(data []byte) (Tree, error) {
	v, err := parseYAML(string(data))
	if err != nil {
		return Tree{}, err
	}
	n, err := yamlNode(v, 0)
	if err != nil {
		return Tree{}, err
	}
	return NewTree(n)
}

// yamlKeys lists the keys of each kind; the first tells the kind, and so
// do the first tell keys (a band may start with any of its keys).
var yamlKeys = []struct {
	kind Kind
	keys []string
	tell int
}{
	{KindDomain, []string{"domain", "child"}, 1},
	{KindContext, []string{"context", "child"}, 1},
	{KindBand, []string{"schedule", "permutable", "coincident", "options", "child"}, 4},
	{KindSequence, []string{"sequence"}, 1},
	{KindSet, []string{"set"}, 1},
	{KindFilter, []string{"filter", "child"}, 1},
	{KindExtension, []string{"extension", "child"}, 1},
	{KindExpansion, []string{"contraction", "expansion", "child"}, 2},
	{KindMark, []string{"mark", "child"}, 1},
	{KindGuard, []string{"guard", "child"}, 1},
	{KindLeaf, []string{"leaf"}, 1},
}

func yamlErr(v *yamlValue, format string, args ...any) error {
	return &YAMLError{Line: v.line, Col: v.col, Msg: fmt.Sprintf(format, args...)}
}

// yamlNode reads the node v at the given schedule depth (the members of
// the bands above it).
func yamlNode(v *yamlValue, depth int) (*Node, error) {
	if v.kind == yamlScalar && v.str == "leaf" {
		return leaf, nil
	}
	if v.kind != yamlMap {
		return nil, yamlErr(v, "a schedule tree node must be a mapping")
	}
	// Like isl, the first key decides the kind.
	var kind Kind
	var keys []string
	for _, k := range yamlKeys {
		if len(v.keys) > 0 && slices.Contains(k.keys[:k.tell], v.keys[0]) {
			kind, keys = k.kind, k.keys
		}
	}
	if keys == nil {
		return nil, yamlErr(v, "unknown node with keys %v", v.keys)
	}
	for i, k := range v.keys {
		if !slices.Contains(keys, k) {
			return nil, yamlErr(v.vals[i], "a %s node has no key %q", kind, k)
		}
	}
	str := func(key string) (string, error) {
		x := v.get(key)
		if x == nil {
			return "", yamlErr(v, "a %s node needs key %q", kind, key)
		}
		if x.kind != yamlScalar {
			return "", yamlErr(x, "%q must be a string", key)
		}
		return x.str, nil
	}
	first, err := str(keys[0])
	if kind == KindSequence || kind == KindSet || kind == KindLeaf {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	var b Band
	childDepth := depth
	if kind == KindBand {
		if b, err = yamlBand(v, first, depth); err != nil {
			return nil, err
		}
		childDepth += b.Members()
	}
	child := leaf
	if c := v.get("child"); c != nil {
		n, err := yamlNode(c, childDepth)
		if err != nil {
			return nil, err
		}
		child = n
	}
	wrap := func(err error) error {
		if err != nil {
			return yamlErr(v.get(keys[0]), "%v", err)
		}
		return nil
	}
	switch kind {
	case KindLeaf:
		return leaf, nil
	case KindDomain:
		s, err := presburger.ParseUnionSet(islSugar(first))
		return NewDomain(s, child), wrap(err)
	case KindContext:
		s, err := presburger.ParseSet(islSugar(first))
		return NewContext(s, child), wrap(err)
	case KindFilter:
		s, err := presburger.ParseUnionSet(islSugar(first))
		return NewFilter(s, child), wrap(err)
	case KindExtension:
		m, err := presburger.ParseUnionMap(islSugar(first))
		return NewExtension(m, child), wrap(err)
	case KindMark:
		return NewMark(first, child), nil
	case KindGuard:
		s, err := presburger.ParseSet(islSugar(first))
		return NewGuard(s, child), wrap(err)
	case KindExpansion:
		c, err := presburger.ParseUnionMap(islSugar(first))
		if err == nil {
			err = contractionReadError(c)
		}
		if err != nil {
			return nil, wrap(err)
		}
		e, err := str("expansion")
		if err != nil {
			return nil, err
		}
		m, err := presburger.ParseUnionMap(islSugar(e))
		if err != nil {
			return nil, yamlErr(v.get("expansion"), "%v", err)
		}
		return NewExpansion(c, m, child), nil
	case KindSequence, KindSet:
		list := v.get(keys[0])
		if list.kind != yamlSeq {
			return nil, yamlErr(list, "%q must be a list of filters", keys[0])
		}
		var children []*Node
		for _, it := range list.items {
			c, err := yamlNode(it, depth)
			if err != nil {
				return nil, err
			}
			children = append(children, c)
		}
		if kind == KindSet {
			return NewSet(children...), nil
		}
		return NewSequence(children...), nil
	}
	return NewBand(b, child), nil
}

func yamlBand(v *yamlValue, sched string, depth int) (Band, error) {
	m, n, err := readMUPA(sched)
	if err != nil {
		return Band{}, yamlErr(v.get("schedule"), "%v", err)
	}
	b := Band{Schedule: m, Coincident: make([]bool, n), Options: make([]Option, n)}
	if err := b.readError(); err != nil {
		return Band{}, yamlErr(v.get("schedule"), "%v", err)
	}
	if p := v.get("permutable"); p != nil {
		if b.Permutable, err = yamlBool(p); err != nil {
			return Band{}, err
		}
	}
	if c := v.get("coincident"); c != nil {
		if c.kind != yamlSeq || len(c.items) != n {
			return Band{}, yamlErr(c, "coincident must be a list of %d flags", n)
		}
		for i, it := range c.items {
			if b.Coincident[i], err = yamlBool(it); err != nil {
				return Band{}, err
			}
		}
	}
	if o := v.get("options"); o != nil {
		if o.kind != yamlScalar {
			return Band{}, yamlErr(o, "options must be a string")
		}
		if err := readOptions(o.str, &b, depth); err != nil {
			return Band{}, yamlErr(o, "%v", err)
		}
	}
	return b, nil
}

func yamlBool(v *yamlValue) (bool, error) {
	if v.kind == yamlScalar {
		switch v.str {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		// isl reads an integer, any but 0 meaning true.
		if n, ok := new(big.Int).SetString(v.str, 10); ok {
			return n.Sign() != 0, nil
		}
	}
	return false, yamlErr(v, "expected 0 or 1")
}
