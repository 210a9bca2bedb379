package compiler

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
	"github.com/tilefuse/tilefuse/tiling/tune"
)

// autoEstimate is the value a size parameter takes in auto's model when
// Options.Estimate has none (post-tiling fusion's estimate does the same).
const autoEstimate = 2048

// resolveAuto turns strategy Auto into the strategy and tile sizes it
// picks for p, and says what it picked: post-tiling fusion, with the
// innermost tile sizes the cost model ranks first (package tiling/tune,
// with the machine's calibrated constants when `tilefuse tune
// --calibrate` made them), when it fuses a stage into another's tiles;
// otherwise DefaultStrategy. Explicit tile sizes (Tile.Sizes) are kept
// and no size is picked.
func resolveAuto(ctx context.Context, p *scop.Program, opts Options) (Options, string, error) {
	post := opts
	post.Strategy, post.Stop = Post, StageFuse
	if len(post.Tile.Sizes) == 0 && len(post.InnerTile) == 0 {
		// The model's reference compilation: its constants were fitted
		// to shapes taken at these sizes.
		post.InnerTile = fusion.DefaultBandSizes
	}
	post.Estimate = autoParams(p, opts.Estimate)
	r, err := Compile(ctx, p, post)
	if err != nil && r.postCheckBudget && ctx.Err() == nil {
		opts, why := checkBudgetFallback(opts)
		return opts, why, nil
	}
	if err != nil {
		return opts, "", err
	}
	fused := false
	if r.Fusion != nil {
		for _, s := range r.Fusion.Spaces {
			fused = fused || s.Fused()
		}
	}
	if !fused {
		return unfused(opts, r.Scheduled)
	}
	opts.Strategy = Post
	if len(opts.Tile.Sizes) > 0 || len(opts.InnerTile) > 0 {
		return opts, "auto: post, with the tile sizes given", nil
	}
	shape, err := tune.ShapeOf(r.Fusion, r.Program, post.Estimate)
	if err != nil {
		return opts, "auto: post with the default tile sizes (" + err.Error() + ")", nil
	}
	trials, calibrated := tune.RankFor(shape, tune.ReadMachine("/sys", autoThreads()))
	pick := trials[0]
	opts.InnerTile = pick.Sizes
	which := "default"
	if calibrated {
		which = "calibrated"
	}
	return opts, fmt.Sprintf("auto: post with tiles %s on the innermost members (the cost model's pick, %s constants, at %s)",
		tiling.FormatSizes(pick.Sizes), which, formatParams(post.Estimate)), nil
}

// autoTile is the tile size auto gives every member of a band of two or
// more members where post-tiling fusion fuses nothing (Polly's default
// too).
const autoTile = 32

// unfused is auto's pick where post-tiling fusion fuses no stage. On the
// CPU: strategy min, each nest its own band as the scheduler finds it,
// and every outermost permutable band of two or more members tiled by
// autoTile (a wavefront of tiles where the band has no parallel member,
// as in the time-iterated stencils and the triangular solvers, except
// below a sequential loop). Measured on PolyBench LARGE, 2 threads,
// interleaved: min so tiled is 1.4-7x faster than smart untiled on 20
// of 30 kernels (2mm 565 -> 139 ms, gramschmidt 5.10 -> 0.73 s,
// seidel-2d 15.8 -> 5.5 s, gemver 19.2 -> 4.9 ms ...), smart tiled sits
// between them, and no kernel loses more than 12% (doitgen).
// A one-member band is left alone: strip-mining one loop reuses
// nothing; so is a band whose tiles bring no reuse and cut no chain of
// dependent instances (tiling.Policy.OnlyReuse: a two-pass blur's
// streaming rows ran 2.6x slower tiled). Sibling reductions (adjacent
// one-statement bands over the same rows, each row a chain, sharing a
// read: gesummv's two products) are fused first and left untiled
// (tiling.Policy.FuseSiblings: gesummv 1.01 -> 0.64 ms warm, 1.39 ms
// cold against Polly's 1.47; adi 1.06x). The point loops of a tile
// inside a parallel tile loop are ordered for locality
// (tiling.Policy.LocalPoints: bicg 3.54 -> 2.32 ms, trmm 144 -> 61 ms).
// A program whose conservative schedule has a time-skewed
// band of deepWavefrontMembers or more members keeps the original order
// (strategy none) instead. Sizes given tile as they say (every outermost
// permutable band). The GPU targets, not measured, keep the default
// strategy. (Under auto, package compiler also sets
// ast.Options.SerialLeaves: durbin 7.5 -> 1.5 ms.)
func unfused(opts Options, conservative scheduletree.Tree) (Options, string, error) {
	opts.InnerTile = nil
	if opts.Target.GPU() {
		opts.Strategy = DefaultStrategy
		return opts, fmt.Sprintf("auto: %s (post-tiling fusion fuses no stage here)", DefaultStrategy), nil
	}
	if len(opts.Tile.Sizes) == 0 && deepWavefront(conservative) {
		opts.Strategy = None
		return opts, fmt.Sprintf("auto: none, the original order (post-tiling fusion fuses no stage here, and its time-skewed band of %d or more members tiles badly)", deepWavefrontMembers), nil
	}
	opts.Strategy = Min
	if len(opts.Tile.Sizes) > 0 {
		return opts, "auto: min, with the tile sizes given (post-tiling fusion fuses no stage here)", nil
	}
	opts.Tile.Sizes, opts.Tile.MinMembers, opts.Tile.NoNestedWavefront, opts.Tile.OnlyReuse, opts.Tile.FuseSiblings, opts.Tile.LocalPoints = []int64{autoTile}, 2, true, true, true, true
	return opts, fmt.Sprintf("auto: min, tiled %d where tiles bring reuse or a wavefront (post-tiling fusion fuses no stage here)", autoTile), nil
}

// deepWavefrontMembers is the number of members from which a band that
// needs a wavefront makes auto keep the original order: a 3-D stencil's
// time-skewed band (heat-3d, 4 members), whose tiles' point loops,
// bounded by a dozen min and max terms each, ran 2.3-3.4x slower at
// LARGE (2 threads) than the original order's parallel space loops
// (tiles of 32: 2.58 s; 16: 2.29 s; 8,8,8,64: 1.81 s; 4,16,16,128:
// 1.71 s; the original order 0.75 s, gcc 0.65 s). The 2-D stencils'
// 3-member bands gain from their tiles (jacobi-2d, fdtd-2d, seidel-2d).
const deepWavefrontMembers = 4

// deepWavefront reports whether t has a band that needs a wavefront
// with at least deepWavefrontMembers members.
func deepWavefront(t scheduletree.Tree) bool {
	found := false
	t.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && n.Band().Members() >= deepWavefrontMembers && tiling.NeedsWavefront(n.Band()) {
			found = true
		}
		return !found
	})
	return found
}

// checkBudgetFallback is auto's pick where the post tree's exact check
// ran out of the operation budget: auto picks what it can vouch for, the
// default strategy, whose trees need no such check.
func checkBudgetFallback(opts Options) (Options, string) {
	opts.Strategy, opts.InnerTile = DefaultStrategy, nil
	return opts, fmt.Sprintf("auto: %s (the post-tiling fusion tree could not be checked within the operation budget)", DefaultStrategy)
}

// autoParams gives every parameter of p a value for the model: est's,
// or autoEstimate.
func autoParams(p *scop.Program, est map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for _, n := range p.Params {
		if v, ok := est[n]; ok {
			out[n] = v
		} else {
			out[n] = autoEstimate
		}
	}
	return out
}

// autoThreads are the threads the code will run on, for the model:
// OMP_NUM_THREADS's, or the CPUs.
func autoThreads() int {
	if n, err := strconv.Atoi(os.Getenv("OMP_NUM_THREADS")); err == nil && n > 0 {
		return n
	}
	return runtime.NumCPU()
}

// formatParams prints parameter values as N=V, in name order.
func formatParams(vals map[string]int64) string {
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%d", n, vals[n])
	}
	return strings.Join(parts, ",")
}
