package compiler

import (
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// tile applies the tiling policy to the scheduled tree. On the CPU the
// policy may distribute a tile's point loops for vectorization, each
// candidate tree checked exactly against the program's dependences
// (computed here when the scheduler did not need them); the GPU mapping
// takes point loops to threads instead.
func (r *Result) tile() error {
	pol := r.Options.Tile
	if pol.Check == nil && len(pol.Sizes) > 0 {
		pol.Check = r.vectorCheck()
	}
	if pol.Program == nil {
		pol.Program = r.Program
	}
	if pol.Note == nil {
		pol.Note = func(s string) { r.TileNotes = append(r.TileNotes, s) }
	}
	var err error
	r.Tiled, r.TiledBands, err = tiling.Apply(r.Scheduled, pol)
	return err
}

// vectorCheck is tiling.Policy.Check for r on the CPU (nil for the GPU
// targets or without a program): a tree is accepted when it respects
// the program's dependences (computed here when the scheduler did not
// need them).
func (r *Result) vectorCheck() func(scheduletree.Tree) (bool, error) {
	if r.Options.Target.GPU() || r.Program == nil {
		return nil
	}
	return func(t scheduletree.Tree) (bool, error) {
		if r.Deps == nil {
			g, err := deps.Memory(r.Program)
			if err != nil {
				return false, err
			}
			r.Deps = g
		}
		vs, err := scheduler.Check(t, r.Deps)
		return err == nil && len(vs) == 0, err
	}
}
