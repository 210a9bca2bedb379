package scheduletree

import (
	"fmt"
	"strings"
)

// Text renders the tree as an indented outline, one node a line, for
// reading in a terminal: the node kind, then what it holds (a band's
// schedule with its flags, a filter's set, a mark's name). Leaves are
// left out.
func (t Tree) Text() string {
	var b strings.Builder
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		if n == nil || n.kind == KindLeaf {
			return
		}
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteString(nodeLine(n))
		b.WriteByte('\n')
		for _, c := range n.children {
			walk(c, depth+1)
		}
	}
	walk(t.root, 0)
	return b.String()
}

func nodeLine(n *Node) string {
	switch n.kind {
	case KindDomain:
		return "domain " + n.uset.String()
	case KindContext:
		return "context " + n.set.String()
	case KindGuard:
		return "guard " + n.set.String()
	case KindFilter:
		return "filter " + n.uset.String()
	case KindExtension:
		return "extension " + n.umap.String()
	case KindExpansion:
		return "expansion " + n.umap.String() + " contraction " + n.contraction.String()
	case KindMark:
		return "mark " + n.mark
	case KindBand:
		bd := n.band.normalized()
		var flags []string
		if bd.Permutable {
			flags = append(flags, "permutable")
		}
		coin := make([]string, len(bd.Coincident))
		for i, c := range bd.Coincident {
			coin[i] = "0"
			if c {
				coin[i] = "1"
			}
		}
		if len(coin) > 0 {
			flags = append(flags, "coincident ["+strings.Join(coin, ", ")+"]")
		}
		for i, o := range bd.Options {
			if o != OptionDefault {
				flags = append(flags, fmt.Sprintf("%s[%d]", o, i))
			}
		}
		s := "band " + bd.Schedule.String()
		if len(flags) > 0 {
			s += "  (" + strings.Join(flags, ", ") + ")"
		}
		return s
	}
	return n.kind.String()
}
