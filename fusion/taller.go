package fusion

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// A fused producer that calls the C library (sinf, expf, ...) costs tens
// of cycles an instance, so the instances a tile recomputes at its border
// cost more than the locality they buy: producer_consumer's sin, fused
// with 16-row tiles, ran 1/16 more calls than gcc's unfused code and tied
// with it (3.14 ms), and 3% faster with 64-row tiles (3.03 ms). With the
// default sizes, Post doubles the tile rows, up to maxLibraryRows, while
// such a producer's estimated recomputation exceeds maxLibraryRecompute.
const (
	maxLibraryRecompute = 1.02
	maxLibraryRows      = 64
)

// tallerRows returns why pf's tiles should be taller: the first fused
// space that calls the C library and recomputes more than
// maxLibraryRecompute of its instances; "" when there is none.
func tallerRows(p *scop.Program, pf *post) string {
	for _, s := range pf.spaces {
		if !s.Fused() || s.Recompute <= maxLibraryRecompute {
			continue
		}
		for _, name := range s.Stmts {
			if st := p.Stmt(name); st != nil && scop.CallsLibrary(st.Value) {
				return fmt.Sprintf("space %d (%s) calls the C library and %d rows would compute its instances %.3g times", s.Index, name, pf.inner[0], s.Recompute)
			}
		}
	}
	return ""
}

// tallerForLibrary doubles pf's tile rows, deciding again with redo, while
// tallerRows finds a reason and the rows are below maxLibraryRows; it
// returns the last decisions and the first reason ("" when the rows
// stayed).
func tallerForLibrary(p *scop.Program, pf *post, redo func(inner []int64) (*post, error)) (*post, string, error) {
	first := ""
	for why := tallerRows(p, pf); why != "" && pf.inner[0] < maxLibraryRows; why = tallerRows(p, pf) {
		if first == "" {
			first = why
		}
		inner := slices.Clone(pf.inner)
		inner[0] *= 2
		var err error
		if pf, err = redo(inner); err != nil {
			return nil, "", err
		}
	}
	return pf, first, nil
}
