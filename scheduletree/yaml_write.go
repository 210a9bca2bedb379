package scheduletree

import (
	"errors"
	"strings"
)

// MarshalYAML writes t in the YAML form that isl_schedule_read_from_str
// reads, in the block style of isl's printer:
//
//	domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }"
//	child:
//	  schedule: "[N] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
//	  permutable: 1
//	  coincident: [ 1, 0 ]
//
// Band schedules are written in multi-union-pw-aff notation, contractions
// in union-pw-multi-aff notation; leaves are left out. Member options
// become isl's "options" set ("{ separate[0]; unroll[1] }").
func MarshalYAML(t Tree) (out []byte, err error) {
	defer catch(&err)
	if t.root == nil {
		return nil, errors.New("scheduletree: empty tree")
	}
	var w yamlWriter
	w.node(t.root, 0, false)
	return []byte(w.b.String()), nil
}

type yamlWriter struct{ b strings.Builder }

// entry is one key of a node's mapping: a scalar, a child node or a list
// of child nodes.
type entry struct {
	key    string
	scalar string
	child  *Node
	list   []*Node
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// node writes n's mapping at the given indentation; inline means the
// first key follows a "- " already written.
func (w *yamlWriter) node(n *Node, indent int, inline bool) {
	entries := yamlEntries(n)
	pad := strings.Repeat(" ", indent)
	for i, e := range entries {
		if i > 0 || !inline {
			w.b.WriteString(pad)
		}
		w.b.WriteString(e.key + ":")
		switch {
		case e.child != nil:
			w.b.WriteString("\n")
			w.node(e.child, indent+2, false)
		case e.list != nil:
			w.b.WriteString("\n")
			for _, c := range e.list {
				w.b.WriteString(pad + "- ")
				if c.kind == KindLeaf {
					// isl writes (and reads) a leaf child as "- leaf".
					w.b.WriteString("leaf\n")
					continue
				}
				w.node(c, indent+2, true)
			}
		default:
			w.b.WriteString(" " + e.scalar + "\n")
		}
	}
}

func yamlEntries(n *Node) []entry {
	var es []entry
	switch n.kind {
	case KindLeaf:
		panic(opError{errors.New("scheduletree: isl's YAML has no form for a leaf here")})
	case KindDomain:
		es = append(es, entry{key: "domain", scalar: quote(n.uset.String())})
	case KindContext:
		es = append(es, entry{key: "context", scalar: quote(n.set.String())})
	case KindBand:
		es = append(es, bandEntries(n.band)...)
	case KindSequence, KindSet:
		return []entry{{key: n.kind.String(), list: n.children}}
	case KindFilter:
		es = append(es, entry{key: "filter", scalar: quote(n.uset.String())})
	case KindExtension:
		es = append(es, entry{key: "extension", scalar: quote(n.umap.String())})
	case KindExpansion:
		es = append(es, entry{key: "contraction", scalar: quote(writeUPMA(n.contraction))},
			entry{key: "expansion", scalar: quote(n.umap.String())})
	case KindMark:
		es = append(es, entry{key: "mark", scalar: quote(n.mark)})
	case KindGuard:
		es = append(es, entry{key: "guard", scalar: quote(n.set.String())})
	}
	switch c := n.children[0]; {
	case c.kind != KindLeaf:
		es = append(es, entry{key: "child", child: c})
	case n.kind == KindMark:
		// isl's reader insists on the child of a mark (though its printer
		// leaves a leaf out); a plain "leaf" is its explicit leaf.
		es = append(es, entry{key: "child", scalar: "leaf"})
	}
	return es
}

func bandEntries(b Band) []entry {
	m := b.Members()
	if m < 1 {
		panic(opError{errors.New("scheduletree: a band needs at least one member")})
	}
	es := []entry{{key: "schedule", scalar: quote(writeMUPA(b.Schedule, m))}}
	if b.Permutable {
		es = append(es, entry{key: "permutable", scalar: "1"})
	}
	if b.anyCoincident() {
		flags := make([]string, len(b.Coincident))
		for i, c := range b.Coincident {
			flags[i] = "0"
			if c {
				flags[i] = "1"
			}
		}
		es = append(es, entry{key: "coincident", scalar: "[ " + strings.Join(flags, ", ") + " ]"})
	}
	if o := writeOptions(b); o != "" {
		es = append(es, entry{key: "options", scalar: quote(o)})
	}
	return es
}
