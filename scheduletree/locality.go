package scheduletree

// Locality scores one band member as the innermost loop: Poor counts
// the accesses that move to another row at each step (worst first),
// Reuse the accesses that stay on one element (twice) or walk a row.
// Package scheduler orders a band's members by it (its innermost
// member), package tiling a tile's point loops.
type Locality struct {
	Poor, Reuse int
	Coincident  bool
}

// Better reports whether a is the better innermost member: fewer poor
// accesses, then coincident (vectorizable), then more reuse.
func (a Locality) Better(b Locality) bool {
	if a.Poor != b.Poor {
		return a.Poor < b.Poor
	}
	if a.Coincident != b.Coincident {
		return a.Coincident
	}
	return a.Reuse > b.Reuse
}
