package tune

import (
	"math"
)

// Costs are the model's constants, in units of one arithmetic operation.
type Costs struct {
	// Access is the cost of a memory access when the working set fits
	// L1, L2, L3 (its share per thread) and none of them.
	L1, L2, L3, Memory float64
	// Tile is the fixed cost of one tile (the loops' start, the
	// extension's bounds); Row the cost of starting one innermost loop.
	Tile, Row float64
}

// DefaultCosts are the constants the model uses until calibrated.
var DefaultCosts = Costs{L1: 1, L2: 1.5, L3: 3, Memory: 8, Tile: 2000, Row: 20}

// Shape is what the model knows of a program compiled by post-tiling
// fusion: its tiled groups.
type Shape struct {
	Groups []Group
}

// Group is a tiled space and the spaces fused into its tiles.
type Group struct {
	// Name names the tiled space (its statements).
	Name string
	// Extent is each tile member's number of points; Ref its tile size
	// at the reference compilation (fixed for members a candidate does
	// not size).
	Extent, Ref []int64
	// Stages are the tiled space (Ratio 1) and the spaces fused into it.
	Stages []Stage
	// Buffers are the tile-local buffers of the group's tiles.
	Buffers []Buffer
	// GlobalBytes are the bytes of global arrays a tile point reads and
	// writes (inputs and outputs), for the working set.
	GlobalBytes float64
}

// Stage is one space's work.
type Stage struct {
	Name string
	// Instances are the space's own instances; Accesses its memory
	// accesses per instance (the arithmetic counts as one).
	Instances, Accesses float64
	// Ratio is the recomputation at the reference sizes (instances run
	// over all tiles against Instances); Buffer the index of the buffer
	// it writes in Group.Buffers, or -1.
	Ratio  float64
	Buffer int
	// Halo is, per dimension of the buffer, the elements the stage's
	// tile computes beyond its share of the tile (FitHalo).
	Halo []float64
}

// Buffer is a tile-local buffer: its element size and, per dimension,
// its extent at the reference sizes and the tile member that moves it,
// with the elements per tile point (0.5 for a half-resolution level).
type Buffer struct {
	Array string
	Elem  int64
	Dims  []BufferDim
}

// BufferDim is one dimension of a Buffer.
type BufferDim struct {
	Extent float64
	Member int // -1: no tile member moves it
	Scale  float64
}

// sizes returns the group's tile size per member under inner, the
// sizes of the innermost members.
func (g *Group) sizes(inner []int64) []int64 {
	n := len(g.Extent)
	out := append([]int64(nil), g.Ref...)
	for i, v := range inner {
		if k := n - len(inner) + i; k >= 0 {
			out[k] = v
		}
	}
	return out
}

// Ratio returns the recomputation of stage si (instances its tiles run
// against its own instances) under the innermost sizes inner.
func (g *Group) Ratio(si int, inner []int64) float64 { return g.ratio(si, g.sizes(inner)) }

// ratio is Ratio at the tile sizes t of every member: per moving
// dimension, the share of the tile plus the stage's halo, against the
// share.
func (g *Group) ratio(si int, t []int64) float64 {
	st := g.Stages[si]
	if st.Buffer < 0 || st.Halo == nil {
		return st.Ratio
	}
	return halosRatio(g.Buffers[st.Buffer].Dims, st.Halo, t)
}

func halosRatio(dims []BufferDim, halo []float64, t []int64) float64 {
	r := 1.0
	for d, x := range dims {
		if x.Member >= 0 && x.Scale > 0 {
			share := x.Scale * float64(t[x.Member])
			r *= (share + halo[d]) / share
		}
	}
	return r
}

// FitHalo sets the halos of stage si, which writes a buffer: the buffer's
// own halos (its extent beyond the tile's share at the reference sizes)
// scaled by the one factor that gives the stage's ratio at the
// reference. A buffer several stages write (the channels of an image,
// each with its own stencil) is as large as the largest halo, and each
// stage's recomputation is its own.
func (g *Group) FitHalo(si int) {
	st := &g.Stages[si]
	if st.Buffer < 0 {
		return
	}
	dims := g.Buffers[st.Buffer].Dims
	base := make([]float64, len(dims))
	for d, x := range dims {
		if x.Member >= 0 && x.Scale > 0 {
			base[d] = math.Max(0, x.Extent-x.Scale*float64(g.Ref[x.Member]))
		}
	}
	scaled := func(a float64) []float64 {
		h := make([]float64, len(base))
		for d := range base {
			h[d] = a * base[d]
		}
		return h
	}
	lo, hi := 0.0, 1.0
	for halosRatio(dims, scaled(hi), g.Ref) < st.Ratio && hi < 1<<10 {
		hi *= 2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if halosRatio(dims, scaled(mid), g.Ref) < st.Ratio {
			lo = mid
		} else {
			hi = mid
		}
	}
	st.Halo = scaled(hi)
}

// extent returns the buffer's extent in dimension d at tile sizes t.
func (b *Buffer) extent(d int, g *Group, t []int64) float64 {
	x := b.Dims[d]
	if x.Member < 0 {
		return x.Extent
	}
	return math.Max(1, x.Extent+x.Scale*float64(t[x.Member]-g.Ref[x.Member]))
}

// bytes returns the buffer's size at tile sizes t.
func (b *Buffer) bytes(g *Group, t []int64) float64 {
	v := float64(b.Elem)
	for d := range b.Dims {
		v *= b.extent(d, g, t)
	}
	return v
}

// Estimate is the model's verdict on one candidate.
type Estimate struct {
	Cost float64 // in operations, over all threads' longest share
	// Features are Cost's coefficients of the constants (see vector).
	Features []float64
	// WorkingSet is the largest group's bytes per thread; Tiles the
	// fewest tiles of a group; Recompute the instances run against the
	// instances of the program (1: none recomputed).
	WorkingSet float64
	Tiles      int64
	Recompute  float64
}

// Cost estimates the run of s with the innermost tile sizes inner on m.
func (c Costs) Cost(s Shape, m Machine, inner []int64) Estimate {
	e := Features(s, m, inner)
	e.Cost = dot(e.Features, c.vector())
	return e
}

// The model is linear in its constants: Cost is the dot product of a
// candidate's Features with (1, L1, L2, L3, Memory, Tile, Row), which is
// what lets Fit find the constants by least squares.
const (
	fArith = iota
	fL1
	fL2
	fL3
	fMemory
	fTile
	fRow
	nFeatures
)

// Of is the cost of a candidate with features (Estimate.Features).
func (c Costs) Of(features []float64) float64 { return dot(features, c.vector()) }

// vector is c in the order of the features.
func (c Costs) vector() []float64 {
	return []float64{1, c.L1, c.L2, c.L3, c.Memory, c.Tile, c.Row}
}

// Features returns the estimate of s under inner without its cost: the
// coefficients of each constant (Estimate.Features), the working set,
// tiles and recomputation.
func Features(s Shape, m Machine, inner []int64) Estimate {
	e := Estimate{Features: make([]float64, nFeatures)}
	var run, own float64
	e.Tiles = math.MaxInt64
	for gi := range s.Groups {
		g := &s.Groups[gi]
		t := g.sizes(inner)
		tiles := int64(1)
		points := 1.0
		for k, n := range g.Extent {
			tiles *= (n + t[k] - 1) / t[k]
			points *= float64(min(t[k], n))
		}
		ws := g.GlobalBytes * points
		for bi := range g.Buffers {
			ws += g.Buffers[bi].bytes(g, t)
		}
		rounds := float64((tiles + int64(m.Threads) - 1) / int64(m.Threads))
		rowLen := float64(min(t[len(t)-1], g.Extent[len(t)-1]))
		var inst, acc float64 // per tile
		for si, st := range g.Stages {
			r := g.ratio(si, t)
			n := st.Instances * r / float64(tiles)
			inst += n
			acc += n * st.Accesses
			run += st.Instances * r
			own += st.Instances
		}
		e.Features[fArith] += rounds * inst
		for level, w := range loadWeights(ws, m) {
			e.Features[fL1+level] += rounds * acc * w
		}
		e.Features[fTile] += rounds
		e.Features[fRow] += rounds * inst / rowLen
		e.WorkingSet = math.Max(e.WorkingSet, ws)
		e.Tiles = min(e.Tiles, tiles)
	}
	if own > 0 {
		e.Recompute = run / own
	}
	if e.Tiles == math.MaxInt64 {
		e.Tiles = 0
	}
	return e
}

func dot(a, b []float64) float64 {
	v := 0.0
	for i := range a {
		v += a[i] * b[i]
	}
	return v
}

// load is the cost of an access with working set ws per thread.
func (c Costs) load(ws float64, m Machine) float64 {
	w := loadWeights(ws, m)
	return w[0]*c.L1 + w[1]*c.L2 + w[2]*c.L3 + w[3]*c.Memory
}

// loadWeights are the weights of the levels' load costs (L1, L2, L3,
// memory) for working set ws per thread: the level it fits, interpolated
// in log2 of the size with the next level up, so that the model has no
// plateaus the ranking cannot break.
func loadWeights(ws float64, m Machine) [4]float64 {
	l3 := math.Max(float64(m.L3)/float64(max(m.Threads, 1)), float64(m.L2)*2)
	sizes := [4]float64{float64(m.L1), float64(m.L2), l3, l3 * 4}
	var w [4]float64
	if ws <= sizes[0] {
		w[0] = 1
		return w
	}
	for i := 1; i < len(sizes); i++ {
		if ws <= sizes[i] {
			f := math.Log2(ws/sizes[i-1]) / math.Log2(sizes[i]/sizes[i-1])
			w[i-1], w[i] = 1-f, f
			return w
		}
	}
	w[3] = 1
	return w
}
