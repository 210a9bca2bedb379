package fusion

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// l1Bytes is the L1 data cache a tile's buffers should fit: 48 KiB, that
// of the x86-64 cores tilefuse is measured on. A tile whose fused
// producers' buffers fit it hands each value to its consumer in L1; one
// whose buffers spill to L2 writes them back and reads them again, which
// costs compute-bound pipelines: harris's two gradient buffers take
// 148 KiB a tile at 16 x 1024 and 37 KiB at 16 x 256, which ran 11%
// faster (36.9 against 40.8 ms, 9 interleaved rounds).
const l1Bytes = 48 << 10

// narrowWidths are the innermost tile sizes tried, widest first, when the
// default's buffers do not fit l1Bytes; none narrower, whose rows are too
// short for vector loops to pay (unsharp_mask ran 0.76x at 256 columns,
// where its buffers do not fit either).
var narrowWidths = []int64{512, 256}

// groupBytes is the largest total of the tile-local buffers of one
// group, and that group.
func groupBytes(bufs []Buffer) (peak int64, group int) {
	per := map[int]int64{}
	for _, b := range bufs {
		per[b.Group] += b.Bytes()
		if per[b.Group] > peak {
			peak, group = per[b.Group], b.Group
		}
	}
	return peak, group
}

// minNarrowOps is the operations (scop.Cost) per point of a group's
// statements, summed, from which narrowing pays: below it a tile streams
// its inputs and outputs from memory more than it computes, and long rows
// serve the prefetchers better than L1 serves the buffers (blur, 12
// operations, ran 5% slower at 512 columns than at 1024, 21 rounds).
const minNarrowOps = 32

// groupOps sums the operations of the statements that group g's tiles
// run: its own and its fused producers'.
func groupOps(p *scop.Program, pf *post, g int) int {
	n := 0
	for _, s := range pf.spaces {
		if s.Index != g && !slices.Contains(s.FusedInto, g) {
			continue
		}
		for _, name := range s.Stmts {
			if st := p.Stmt(name); st != nil {
				n += scop.Cost(st.Value)
			}
		}
	}
	return n
}

// narrowForL1 returns the decisions (made again with redo) and buffers at
// the widest of narrowWidths whose buffers fit l1Bytes where the default
// width's do not, and why; pf and bufs themselves otherwise.
func narrowForL1(p *scop.Program, pf *post, bufs []Buffer, redo func(inner []int64) (*post, error)) (*post, []Buffer, string, error) {
	inner := pf.inner
	peak, g := groupBytes(bufs)
	if peak <= l1Bytes || len(inner) < 2 {
		return pf, bufs, "", nil
	}
	ops := groupOps(p, pf, g)
	if ops < minNarrowOps {
		return pf, bufs, "", nil
	}
	w := inner[len(inner)-1]
	for _, nw := range narrowWidths {
		// The buffers shrink at most in proportion to the width.
		if nw >= w || peak*nw/w > l1Bytes {
			continue
		}
		ni := slices.Clone(inner)
		ni[len(ni)-1] = nw
		npf, err := redo(ni)
		if err != nil {
			return nil, nil, "", err
		}
		nb, err := npf.buffers(p)
		if err != nil {
			return nil, nil, "", err
		}
		if np, _ := groupBytes(nb); np <= l1Bytes {
			why := fmt.Sprintf("the tiles of space %d compute %d operations a point and their buffers take %d bytes at %d columns, %d at %d: within the L1 data cache (%d)", g, ops, peak, w, np, nw, l1Bytes)
			return npf, nb, why, nil
		}
	}
	return pf, bufs, "", nil
}
