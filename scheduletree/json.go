package scheduletree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// jsonNode is the JSON object of one node; the field order is the order of
// the keys in the output.
type jsonNode struct {
	Kind        string      `json:"kind"`
	Domain      *string     `json:"domain,omitempty"`
	Context     *string     `json:"context,omitempty"`
	Schedule    *string     `json:"schedule,omitempty"`
	Permutable  *bool       `json:"permutable,omitempty"`
	Coincident  []bool      `json:"coincident,omitempty"`
	Options     []string    `json:"options,omitempty"`
	Isolate     *string     `json:"isolate,omitempty"`
	IsolateOpts []string    `json:"isolateOptions,omitempty"`
	Filter      *string     `json:"filter,omitempty"`
	Extension   *string     `json:"extension,omitempty"`
	Contraction *string     `json:"contraction,omitempty"`
	Expansion   *string     `json:"expansion,omitempty"`
	Mark        *string     `json:"mark,omitempty"`
	Guard       *string     `json:"guard,omitempty"`
	Child       *jsonNode   `json:"child,omitempty"`
	Children    []*jsonNode `json:"children,omitempty"`
}

// Marshal writes t in the JSON inspection format (see the package
// documentation): indented by two spaces, keys in a fixed order, sets and
// maps in isl notation in a canonical form, so that the output of
// Marshal(Unmarshal(Marshal(t))) is byte for byte that of Marshal(t).
func Marshal(t Tree) ([]byte, error) {
	if t.root == nil {
		return nil, errors.New("scheduletree: empty tree")
	}
	return marshalNode(t.root)
}

// MarshalNode writes one subtree like Marshal.
func MarshalNode(n *Node) ([]byte, error) { return marshalNode(orLeaf(n)) }

func marshalNode(n *Node) (out []byte, err error) {
	defer catch(&err)
	var b bytes.Buffer
	writeJSON(&b, toJSON(n), "")
	b.WriteString("\n")
	return b.Bytes(), nil
}

// writeJSON writes j indented by two spaces per level, with lists of
// flags and options on one line.
func writeJSON(b *bytes.Buffer, j *jsonNode, indent string) {
	in := indent + "  "
	b.WriteString("{\n" + in + `"kind": ` + jsonString(j.Kind))
	field := func(key, value string) { b.WriteString(",\n" + in + jsonString(key) + ": " + value) }
	for _, f := range []struct {
		key string
		val *string
	}{{"domain", j.Domain}, {"context", j.Context}, {"schedule", j.Schedule}} {
		if f.val != nil {
			field(f.key, jsonString(*f.val))
		}
	}
	if j.Permutable != nil {
		field("permutable", fmt.Sprint(*j.Permutable))
	}
	if j.Coincident != nil {
		field("coincident", jsonList(j.Coincident, func(c bool) string { return fmt.Sprint(c) }))
	}
	if j.Options != nil {
		field("options", jsonList(j.Options, jsonString))
	}
	if j.Isolate != nil {
		field("isolate", jsonString(*j.Isolate))
	}
	if j.IsolateOpts != nil {
		field("isolateOptions", jsonList(j.IsolateOpts, jsonString))
	}
	for _, f := range []struct {
		key string
		val *string
	}{{"filter", j.Filter}, {"extension", j.Extension}, {"contraction", j.Contraction},
		{"expansion", j.Expansion}, {"mark", j.Mark}, {"guard", j.Guard}} {
		if f.val != nil {
			field(f.key, jsonString(*f.val))
		}
	}
	if j.Child != nil {
		field("child", "")
		writeJSON(b, j.Child, in)
	}
	if j.Children != nil {
		field("children", "[")
		for i, c := range j.Children {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + in + "  ")
			writeJSON(b, c, in+"  ")
		}
		b.WriteString("\n" + in + "]")
	}
	b.WriteString("\n" + indent + "}")
}

func jsonList[T any](list []T, f func(T) string) string {
	parts := make([]string, len(list))
	for i, x := range list {
		parts[i] = f(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// jsonString quotes s as JSON, leaving <, > and & alone (they are common
// in sets and harmless outside HTML).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	must(0, enc.Encode(s))
	return strings.TrimSuffix(b.String(), "\n")
}

// MarshalJSON implements json.Marshaler with Marshal's output.
func (t Tree) MarshalJSON() ([]byte, error) { return Marshal(t) }

// UnmarshalJSON implements json.Unmarshaler with Unmarshal.
func (t *Tree) UnmarshalJSON(data []byte) error {
	u, err := Unmarshal(data)
	if err == nil {
		*t = u
	}
	return err
}

func str(s string) *string { return &s }

func toJSON(n *Node) *jsonNode {
	j := &jsonNode{Kind: n.kind.String()}
	switch n.kind {
	case KindDomain:
		j.Domain = str(canonUnionSet(n.uset))
	case KindContext:
		j.Context = str(canonSet(n.set))
	case KindBand:
		b := n.band
		j.Schedule = str(canonUnionMap(b.Schedule))
		j.Permutable = &b.Permutable
		j.Coincident = append([]bool{}, b.Coincident...)
		if b.anyOption() {
			for _, o := range b.Options {
				j.Options = append(j.Options, o.String())
			}
		}
		if b.Isolate != nil {
			j.Isolate = str(canonSet(*b.Isolate))
		}
		for k := range b.Options {
			if b.IsolateOption(k) != OptionDefault {
				for k := range b.Options {
					j.IsolateOpts = append(j.IsolateOpts, b.IsolateOption(k).String())
				}
				break
			}
		}
	case KindFilter:
		j.Filter = str(canonUnionSet(n.uset))
	case KindExtension:
		j.Extension = str(canonUnionMap(n.umap))
	case KindExpansion:
		j.Contraction = str(canonUnionMap(n.contraction))
		j.Expansion = str(canonUnionMap(n.umap))
	case KindMark:
		j.Mark = str(n.mark)
	case KindGuard:
		j.Guard = str(canonSet(n.set))
	}
	switch {
	case n.kind == KindSequence || n.kind == KindSet:
		for _, c := range n.children {
			j.Children = append(j.Children, toJSON(c))
		}
	case len(n.children) == 1 && n.children[0].kind != KindLeaf:
		j.Child = toJSON(n.children[0])
	}
	return j
}

// canonical prints x, reads the text back and prints again until the text
// no longer changes: the printer is not always a fixed point of the
// parser, and the JSON must be.
func canonical[T any](x T, print func(T) string, parse func(string) (T, error)) string {
	s := print(x)
	for range 8 {
		y := must(parse(s))
		t := print(y)
		if t == s {
			return s
		}
		s = t
	}
	panic(opError{fmt.Errorf("scheduletree: printing of %s does not settle", s)})
}

func canonUnionSet(s presburger.UnionSet) string {
	return canonical(s, presburger.UnionSet.String, presburger.ParseUnionSet)
}

func canonUnionMap(m presburger.UnionMap) string {
	return canonical(m, presburger.UnionMap.String, presburger.ParseUnionMap)
}

func canonSet(s presburger.Set) string {
	return canonical(s, presburger.Set.String, presburger.ParseSet)
}

// Unmarshal reads a tree in the JSON inspection format; unknown keys,
// keys that do not belong to the node's kind and malformed sets are
// errors naming the node's path.
func Unmarshal(data []byte) (Tree, error) {
	n, err := UnmarshalNode(data)
	if err != nil {
		return Tree{}, err
	}
	return NewTree(n)
}

// UnmarshalNode reads one subtree written by MarshalNode.
func UnmarshalNode(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j jsonNode
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("scheduletree: %w", err)
	}
	if dec.More() {
		return nil, errors.New("scheduletree: data after the tree")
	}
	return fromJSON(Path{}, &j)
}

// jsonFields lists the keys each kind has besides kind, child and children.
var jsonFields = map[Kind][]string{
	KindDomain:    {"domain"},
	KindContext:   {"context"},
	KindBand:      {"schedule", "permutable", "coincident", "options", "isolate", "isolateOptions"},
	KindFilter:    {"filter"},
	KindExtension: {"extension"},
	KindExpansion: {"contraction", "expansion"},
	KindMark:      {"mark"},
	KindGuard:     {"guard"},
}

func (j *jsonNode) present() map[string]bool {
	return map[string]bool{
		"domain": j.Domain != nil, "context": j.Context != nil, "schedule": j.Schedule != nil,
		"permutable": j.Permutable != nil, "coincident": j.Coincident != nil, "options": j.Options != nil,
		"isolate": j.Isolate != nil, "isolateOptions": j.IsolateOpts != nil,
		"filter": j.Filter != nil, "extension": j.Extension != nil, "contraction": j.Contraction != nil,
		"expansion": j.Expansion != nil, "mark": j.Mark != nil, "guard": j.Guard != nil,
	}
}

func fromJSON(p Path, j *jsonNode) (*Node, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("scheduletree: JSON node %s: %s", p, fmt.Sprintf(format, args...))
	}
	k, ok := kindByName(j.Kind)
	if !ok {
		return nil, fail("unknown kind %q", j.Kind)
	}
	allowed := map[string]bool{}
	for _, f := range jsonFields[k] {
		allowed[f] = true
	}
	for f, here := range j.present() {
		if here && !allowed[f] {
			return nil, fail("a %s node has no key %q", k, f)
		}
	}
	switch k {
	case KindBand:
		if j.Schedule == nil {
			return nil, fail("a band node needs a schedule")
		}
	case KindDomain, KindContext, KindFilter, KindExtension, KindMark, KindGuard:
		if !j.present()[jsonFields[k][0]] {
			return nil, fail("a %s node needs key %q", k, jsonFields[k][0])
		}
	case KindExpansion:
		if j.Contraction == nil || j.Expansion == nil {
			return nil, fail("an expansion node needs a contraction and an expansion")
		}
	}
	multi := k == KindSequence || k == KindSet
	if multi && j.Child != nil || !multi && j.Children != nil || k == KindLeaf && j.Child != nil {
		return nil, fail("a %s node cannot have that key (child or children)", k)
	}
	var child *Node
	var children []*Node
	if j.Child != nil {
		c, err := fromJSON(p.Child(0), j.Child)
		if err != nil {
			return nil, err
		}
		child = c
	}
	for i, cj := range j.Children {
		c, err := fromJSON(p.Child(i), cj)
		if err != nil {
			return nil, err
		}
		children = append(children, c)
	}
	n, err := buildNode(k, j, child, children)
	if err != nil {
		return nil, fail("%v", err)
	}
	return n, nil
}

func buildNode(k Kind, j *jsonNode, child *Node, children []*Node) (n *Node, err error) {
	defer catch(&err)
	switch k {
	case KindLeaf:
		return NewLeaf(), nil
	case KindDomain:
		return NewDomain(must(presburger.ParseUnionSet(*j.Domain)), child), nil
	case KindContext:
		return NewContext(must(presburger.ParseSet(*j.Context)), child), nil
	case KindFilter:
		return NewFilter(must(presburger.ParseUnionSet(*j.Filter)), child), nil
	case KindExtension:
		return NewExtension(must(presburger.ParseUnionMap(*j.Extension)), child), nil
	case KindExpansion:
		c := must(presburger.ParseUnionMap(*j.Contraction))
		if err := contractionReadError(c); err != nil {
			return nil, err
		}
		return NewExpansion(c, must(presburger.ParseUnionMap(*j.Expansion)), child), nil
	case KindMark:
		return NewMark(*j.Mark, child), nil
	case KindGuard:
		return NewGuard(must(presburger.ParseSet(*j.Guard)), child), nil
	case KindSequence:
		return NewSequence(children...), nil
	case KindSet:
		return NewSet(children...), nil
	}
	b := Band{Schedule: must(presburger.ParseUnionMap(*j.Schedule)), Coincident: j.Coincident}
	if j.Permutable != nil {
		b.Permutable = *j.Permutable
	}
	for _, s := range j.Options {
		o, ok := optionByName(s)
		if !ok {
			return nil, fmt.Errorf("unknown option %q", s)
		}
		b.Options = append(b.Options, o)
	}
	for _, s := range j.IsolateOpts {
		o, ok := optionByName(s)
		if !ok {
			return nil, fmt.Errorf("unknown option %q", s)
		}
		b.IsolateOptions = append(b.IsolateOptions, o)
	}
	if j.Isolate != nil {
		iso := must(presburger.ParseSet(*j.Isolate))
		if out := iso.Space().Out; iso.Space().IsMap || out.Name != "isolate" || out.Nest == nil {
			return nil, fmt.Errorf("isolate %s is not a set isolate[[outer] -> [members]]", iso)
		}
		b.Isolate = &iso
	}
	// A coincident list, when given, has one flag per member: a shorter
	// one would leave the others silently false (isl's YAML, too, wants
	// them all).
	if m := b.Members(); j.Coincident != nil && len(b.Coincident) != m || len(b.Options) > m || len(b.IsolateOptions) > m {
		return nil, fmt.Errorf("%d members but %d coincident flags and %d options", m, len(b.Coincident), len(b.Options))
	}
	if err := b.readError(); err != nil {
		return nil, err
	}
	return NewBand(b, child), nil
}
