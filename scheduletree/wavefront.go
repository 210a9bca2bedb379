package scheduletree

import (
	"fmt"
	"strings"
)

// Wavefront skews the band at p, of m >= 2 members s_0, ..., s_{m-1}, into
// a wavefront: a band with the one member s_0 + ... + s_{n-1} (2 <= n <= m)
// over a band with the members s_1, ..., s_{m-1}. The change of basis is
// unimodular, so the two bands order the instances as a band can.
//
// When the band is permutable every dependence it does not leave to the
// bands above goes forward or nowhere in each member, so one that the
// wavefront member does not carry is carried by none of s_0, ..., s_{n-1}:
// members s_1, ..., s_{n-1} of the inner band are then marked coincident
// (parallel once the wavefront is fixed), the others keep their flags.
// Both bands keep the permutable flag and their members' options; the
// wavefront member takes s_0's option and is not coincident.
//
// Tiled, this is the parallelogram tiling of a time-skewed stencil with
// wavefront parallelism over the tiles (see package tiling).
func (t Tree) Wavefront(p Path, n int) (Tree, error) {
	return t.editBand(p, func(nd *Node, b Band) (*Node, error) {
		m := b.Members()
		if m < 2 || n < 2 || n > m {
			return nil, pathErr(p, nd, "cannot make a wavefront of %d of the %d members", n, m)
		}
		b = b.normalized()
		sum := make([]string, n)
		for k := range sum {
			sum[k] = fmt.Sprintf("s%d", k)
		}
		front := Band{
			Schedule:   applyText(b.Schedule, "{ "+tuple("s", m)+" -> ["+strings.Join(sum, " + ")+"] }"),
			Permutable: b.Permutable,
			Coincident: []bool{false},
			Options:    b.Options[:1:1],
		}
		rest := b.members(1, m)
		for k := 1; k < n; k++ {
			rest.Coincident[k-1] = rest.Coincident[k-1] || b.Permutable
		}
		return NewBand(front, NewBand(rest, nd.children[0])), nil
	})
}
