package compiler

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/delicm"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/inline"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/transpose"
	"github.com/tilefuse/tilefuse/widen"
)

// Result holds every intermediate value of a compilation; the fields of
// stages after Options.Stop (or after a failing stage) are zero.
type Result struct {
	// Program is the program compiled: the source program, with its
	// temporary scalars mapped onto array elements where they can be
	// (Scalars lists them), and for strategy Post its cheap pointwise
	// stages inlined (Inlined lists them); Source is the program as
	// given.
	Program, Source *scop.Program
	Inlined         []inline.Stage
	// Scalars lists the temporary scalars mapped onto array elements
	// (package delicm) before inlining.
	Scalars []delicm.Mapping
	// Transposed lists the transposed copies of read-only arrays made
	// after mapping scalars (package transpose).
	Transposed []transpose.Copy
	// Widened names the small-integer tables stored as 32-bit integers
	// after inlining (package widen).
	Widened []string
	// Kept names the constant tables the CPU code computes on a thread's
	// first call only and keeps for its later calls (emit.KeptTables),
	// known once the AST is.
	Kept    []string
	Options Options
	// Deps are the program's memory dependences (nil when no stage
	// needed them: the original order, or a given tree).
	Deps *deps.Graph
	// Scheduled is the scheduler's tree (or Options.Tree); Tiled the tree
	// after tiling, with TiledBands the paths of the bands tiled (each
	// now a tile band above its point band); Fused after fusion; Mapped
	// after the GPU mapping (the tree AST generation reads).
	Scheduled, Tiled, Fused, Mapped scheduletree.Tree
	TiledBands                      []scheduletree.Path
	// mapping says how the GPU mapping renumbered the prefix schedules
	// at the tile-local buffers' marks (a wavefront over the tiles).
	mapping gpumap.Mapping
	// TileNotes are the tiling's decisions on bands, a line each
	// (tiling.Policy.Note), for explain.
	TileNotes []string
	// Fusion is what post-tiling fusion decided for each computation
	// space (strategy Post only).
	Fusion *fusion.Result
	// initialized: the temporaries every read of which has a source
	// (known when post-tiling fusion computed the dataflow).
	initialized map[string]bool
	// flow is post-tiling fusion's dataflow, computed beside scheduling;
	// check is the check of its tree, run beside the later stages.
	flow  *task[*deps.Flow]
	check *task[struct{}]
	// hints are the emitter's analyses of the program, started beside
	// post-tiling fusion's serial part.
	hints *task[emitHints]
	// postCheckBudget: the post tree's check ran out of operation budget.
	postCheckBudget bool
	// AST is the generated code; Module the emitted LLVM IR. Both name
	// Program's statements: execute AST with Program, not Source.
	AST    ast.Node
	Module *emit.Module
	// Auto says what strategy Auto picked (Options holds the pick).
	Auto string
	// Times is the wall time of each stage, indexed by Stage.
	Times [StageEmit + 1]time.Duration
	// Done is the last stage completed.
	Done Stage
}

// Tree returns the last tree the compilation produced.
func (r *Result) Tree() scheduletree.Tree {
	switch {
	case r.Done >= StageMap:
		return r.Mapped
	case r.Done >= StageFuse:
		return r.Fused
	case r.Done >= StageTile:
		return r.Tiled
	}
	return r.Scheduled
}

// C prints the AST as a complete C function called fn (see
// ast.PrintProgram): the naive C of the original order is the peers'
// input and the runner's reference.
func (r *Result) C(fn string) (string, error) {
	if r.AST == nil {
		return "", fmt.Errorf("compiler: no AST (the compilation stopped after %s)", r.Done)
	}
	return ast.PrintProgram(r.Program, r.AST, fn)
}

// InternalError is a panic inside a stage: a bug in tilefuse, reported
// as an error with the stack where it happened.
type InternalError struct {
	Stage Stage
	Value any
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error in stage %s (a bug in tilefuse, please report it): %v", e.Stage, e.Value)
}

// exclusive serialises the compilations that change process-wide
// presburger state (a watched context, an operation limit).
var exclusive sync.RWMutex

// Compile runs the stages on p with opts and returns what each produced.
// On an error, the Result holds the stages completed before it. When ctx
// ends first, the error wraps ctx.Err().
func Compile(ctx context.Context, p *scop.Program, opts Options) (*Result, error) {
	var auto string
	if opts.Strategy == Auto && p != nil && opts.Tree == nil {
		var err error
		if opts, auto, err = resolveAuto(ctx, p, opts); err != nil {
			return &Result{Program: p, Source: p, Options: opts}, err
		}
	}
	r, err := compile(ctx, p, opts, auto)
	if auto != "" && opts.Strategy == Post && r.postCheckBudget && ctx.Err() == nil {
		opts, auto = checkBudgetFallback(opts)
		return compile(ctx, p, opts, auto)
	}
	return r, err
}

// compile is Compile once the strategy is known; auto says what Auto
// picked ("" when the strategy was given).
func compile(ctx context.Context, p *scop.Program, opts Options, auto string) (*Result, error) {
	if ctx.Done() != nil || opts.MaxOps > 0 || opts.MaxPieces > 0 {
		exclusive.Lock()
		defer exclusive.Unlock()
		if opts.MaxOps > 0 || opts.MaxPieces > 0 {
			old := presburger.CurrentLimits()
			l := old
			if opts.MaxOps > 0 {
				l.MaxOps = opts.MaxOps
			}
			if opts.MaxPieces > 0 {
				l.MaxPieces = opts.MaxPieces
			}
			presburger.SetLimits(l)
			defer presburger.SetLimits(old)
		}
	} else {
		exclusive.RLock()
		defer exclusive.RUnlock()
	}
	stop := presburger.WatchContext(ctx)
	defer stop()

	r := &Result{Program: p, Source: p, Options: opts, Auto: auto}
	last := opts.Stop
	if last == 0 || last > StageEmit {
		last = StageEmit
	}
	if p == nil && (opts.Tree == nil || last > StageAST) {
		return r, fmt.Errorf("compiler: no program")
	}
	for s := StageSchedule; s <= last; s++ {
		start := time.Now()
		err := r.run(s)
		r.Times[s] += time.Since(start)
		if err == nil && s == last {
			// The tree's check ran beside the later stages: a
			// compilation succeeds only once it has passed.
			if err = r.finishCheck(); err != nil {
				s = StageFuse
				r.postCheckBudget = errors.Is(err, presburger.ErrBudget)
			}
		}
		if cerr := ctx.Err(); cerr != nil {
			r.joinBackground()
			return r, fmt.Errorf("compilation stopped during %s: %w", s, cerr)
		}
		if err != nil {
			r.joinBackground()
			return r, limitError(err, s)
		}
		r.Done = s
	}
	r.joinBackground()
	return r, nil
}

// joinBackground waits for the work still running beside the stages, so
// that none outlives Compile (its limits and lock), on every return.
func (r *Result) joinBackground() {
	if r.flow != nil {
		r.flow.wait()
	}
	if r.check != nil {
		r.check.wait()
	}
	if r.hints != nil {
		r.hints.wait()
	}
}

// mapScalars maps temporary scalars onto array elements for the
// scheduling strategies: the original order gains nothing from it, and
// a given tree or call schedule names the program's own statements.
func (r *Result) mapScalars() error {
	switch {
	case r.Program == nil || r.Options.Tree != nil || r.Options.KeepScalars:
		return nil
	case r.Options.Strategy != Min && r.Options.Strategy != Smart && r.Options.Strategy != Max && r.Options.Strategy != Post:
		return nil
	}
	q, done, err := delicm.Program(r.Program)
	if err != nil {
		return err
	}
	r.Program, r.Scalars = q, done
	return nil
}

// transpose gives read-only arrays read across their rows transposed
// copies, for strategies Min and Post (so Auto): Smart and Max fuse a
// copy into the nests that read it, which undoes what it is for (syrk at
// LARGE under smart: 0.49 s with the copy, 0.35 s without; max 1.30 s
// against 0.34 s). On the GPU too: there a row read by consecutive
// threads is coalesced where the column was strided (the GPU mapping
// restates the copies' tile-local buffers under its wavefronts: randprog's
// regress transposed-copy-gpu.c).
func (r *Result) transpose() error {
	switch {
	case r.Program == nil || r.Options.Tree != nil || r.Options.KeepLayout:
		return nil
	case r.Options.Strategy != Min && r.Options.Strategy != Post:
		return nil
	}
	q, done, err := transpose.Program(r.Program)
	if err != nil {
		return err
	}
	r.Program, r.Transposed = q, done
	return nil
}

// widen stores the small-integer tables that the program gathers from
// as 32-bit integers on the CPU, where vector gathers load 32-bit lanes
// (package widen; camera_pipe's tone curve).
func (r *Result) widen() {
	if r.Program == nil || r.Options.Tree != nil || r.Options.Target.GPU() {
		return
	}
	r.Program, r.Widened = widen.Program(r.Program)
}

// copyStmts names the statements that write transposed copies.
func copyStmts(copies []transpose.Copy) []string {
	var out []string
	for _, c := range copies {
		out = append(out, c.Stmt)
	}
	return out
}

// inline substitutes the cheap pointwise stages for strategy Post.
func (r *Result) inline() error {
	if r.Program == nil || r.Options.Tree != nil {
		return nil
	}
	var opts inline.Options
	switch {
	case r.Options.Strategy == Schedule:
		if r.Options.Target.GPU() {
			return fmt.Errorf("strategy schedule compiles a call schedule for the CPU; GPU schedules (gpu_blocks, gpu_threads) are not supported: use --fuse post for %s", r.Options.Target)
		}
		if r.Program.Calls == nil {
			return fmt.Errorf("strategy schedule compiles a pipeline's own schedule, and %s has none (it is not a Go DSL pipeline)", r.Program.Name)
		}
		opts.Only = scheduledInline(r.Program.Calls)
		if len(opts.Only) == 0 {
			return nil
		}
	case r.Options.Strategy != Post || r.Options.NoInline:
		return nil
	}
	opts.Keep = copyStmts(r.Transposed)
	q, done, err := inline.Program(r.Program, opts)
	if err != nil {
		return err
	}
	r.Program, r.Inlined = q, done
	return nil
}

// run runs one stage, turning a panic into an InternalError.
func (r *Result) run(s Stage) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &InternalError{Stage: s, Value: v, Stack: debug.Stack()}
		}
	}()
	switch s {
	case StageSchedule:
		if err := r.mapScalars(); err != nil {
			return err
		}
		if err := r.transpose(); err != nil {
			return err
		}
		if err := r.inline(); err != nil {
			return err
		}
		r.widen()
		r.startDataflow()
		return r.schedule()
	case StageTile:
		if (r.Options.Strategy == Post || r.Options.Strategy == Schedule) && r.Options.Tree == nil {
			// Post-tiling fusion tiles the live-out spaces itself; a call
			// schedule says how its loops are split.
			r.Tiled = r.Scheduled
			return nil
		}
		err = r.tile()
	case StageFuse:
		return r.fuse()
	case StageMap:
		r.Mapped = r.Fused
		if r.Options.Target.GPU() {
			var m gpumap.Mapping
			m, err = gpumap.MapTree(r.Fused, r.Options.GPU)
			r.Mapped, r.mapping = m.Tree, m
		}
	case StageAST:
		// On the GPU targets the marks carry the parallelism: the AST's
		// parallel flags would map the nests the mapping leaves on the
		// host.
		// A call schedule's parallel loops are its "parallel" marks.
		par := r.Options.Parallel && !r.Options.Target.GPU() && r.Options.Strategy != Schedule
		// Auto also leaves serial the one-statement loops inside
		// sequential ones (ast.Options.SerialLeaves).
		r.AST, err = ast.Generate(r.Mapped, ast.Options{Parallel: par, SerialLeaves: par && r.Auto != "", Context: r.Options.Context, Buffers: r.buffers(), MaxNodes: r.Options.MaxNodes})
		if err == nil && r.keepTables() {
			r.Kept = emit.KeptTables(r.Program, r.AST)
		}
	case StageEmit:
		r.startHints()
		h, herr := r.hints.wait()
		if herr != nil {
			return herr
		}
		r.Module, err = emit.Emit(r.Program, r.AST, emit.Options{
			Target: r.Options.Target, Func: r.Options.Func, Parallel: r.Options.Parallel || r.Options.Strategy == Schedule,
			Dynamic: r.Options.Dynamic, ThreadSizes: r.Options.GPU.Threads, BlockSizes: r.Options.GPU.Blocks,
			Initialized: r.initialized, Cold: h.cold, Speculable: h.speculable, Accumulators: h.acc,
			KeepTables: r.keepTables(),
		})
	}
	return err
}

// keepTables says whether the emitted code keeps constant tables between
// calls: on the CPU, unless Options.RecomputeTables.
func (r *Result) keepTables() bool {
	return r.Program != nil && r.Options.Target == emit.CPU && !r.Options.RecomputeTables
}

// fuse runs post-tiling fusion for strategy Post; the other strategies
// fused while scheduling.
func (r *Result) fuse() error {
	r.Fused = r.Tiled
	if (r.Options.Strategy != Post && r.Options.Strategy != Schedule) || r.Options.Tree != nil {
		return nil
	}
	r.startDataflow()
	flow, err := r.flow.wait()
	if err != nil {
		return err
	}
	// The emitter's analyses take the core fusion leaves idle.
	r.startHints()
	var pr *fusion.Result
	if r.Options.Strategy == Schedule {
		pr, err = fusion.Scheduled(r.Program, flow)
	} else {
		m := 1
		if r.Options.Target.GPU() {
			m = 2
		}
		pr, err = fusion.Post(r.Tiled, r.Program, flow, fusion.Options{Sizes: r.Options.Tile.Sizes, Inner: r.Options.InnerTile,
			Parallel: m, MaxRecompute: r.Options.MaxRecompute, Estimate: r.Options.Estimate, Check: r.vectorCheck()})
	}
	if err != nil {
		return err
	}
	r.Fused, r.Fusion, r.TiledBands = pr.Tree, pr, pr.TileBands
	r.initialized = initialized(r.Program, flow)
	// Every post tree is checked, not assumed legal: each read must find
	// its producer's value in its tile. The check runs beside the later
	// stages; Compile fails if it does.
	tree, prog := pr.Tree, r.Program
	r.check = goTask(StageFuse, func() (struct{}, error) {
		vs, err := scheduler.CheckFlow(tree, prog, flow)
		if err != nil {
			return struct{}{}, fmt.Errorf("checking the post-tiling fusion tree: %w", err)
		}
		if len(vs) > 0 {
			if r.Options.Strategy == Schedule {
				return struct{}{}, scheduleViolation(prog, vs[0])
			}
			return struct{}{}, fmt.Errorf("post-tiling fusion built an illegal tree (a bug in tilefuse, please report it): %v", vs[0])
		}
		return struct{}{}, nil
	})
	return nil
}

// schedule builds the initial tree, or takes the user's.
func (r *Result) schedule() error {
	if t := r.Options.Tree; t != nil {
		if err := CheckTree(r.Program, *t); err != nil {
			return err
		}
		r.Scheduled = *t
		return nil
	}
	if r.Options.Strategy == None || r.Options.Strategy == Schedule {
		t, err := scheduler.Original(r.Program)
		r.Scheduled = t
		return err
	}
	fuse, ok := r.Options.Strategy.fuse()
	if !ok {
		return fmt.Errorf("compiler: unknown strategy %v", r.Options.Strategy)
	}
	g, err := deps.Memory(r.Program)
	if err != nil {
		return err
	}
	r.Deps = g
	// GPU targets keep the hyperplanes' order of band members: the
	// mapping takes the leading coincident members for blocks and
	// threads, where the CPU wants the best-locality member innermost.
	r.Scheduled, err = scheduler.Schedule(r.Program, g, scheduler.Options{Fuse: fuse, Siblings: r.Options.Strategy == Post, KeepOrder: r.Options.Target.GPU(), MaxWork: r.Options.ScheduleWork})
	return err
}

// CheckTree checks that t is a valid tree and, when p is given, that it
// schedules exactly p's statement instances.
func CheckTree(p *scop.Program, t scheduletree.Tree) error {
	if err := scheduletree.Validate(t); err != nil {
		return fmt.Errorf("invalid tree: %v", err)
	}
	if p == nil {
		return nil
	}
	dom, err := p.Domains()
	if err != nil {
		return err
	}
	eq, err := t.Domain().IsEqual(dom)
	if err != nil {
		return err
	}
	if !eq {
		return fmt.Errorf("the tree's domain %s is not the program's %s", t.Domain(), dom)
	}
	return nil
}

// ProgramForTree returns the program a user's tree t schedules: p, or p
// as the scheduling strategies rewrite it before scheduling (its
// temporary scalars mapped onto array elements, its read-only arrays read
// across their rows given transposed copies, then for a tree written
// by strategy Post its cheap pointwise stages inlined) when t schedules
// exactly that program's statements.
func ProgramForTree(p *scop.Program, t scheduletree.Tree) (*scop.Program, error) {
	if p == nil || t.Root() == nil {
		return p, nil
	}
	mapped, _, err := delicm.Program(p)
	if err != nil {
		return nil, err
	}
	// Each base with the statements inlining must keep.
	bases := []*scop.Program{mapped, p}
	keep := [][]string{nil, nil}
	for _, base := range []*scop.Program{mapped, p} {
		q, done, err := transpose.Program(base)
		if err != nil {
			return nil, err
		}
		if len(done) > 0 {
			bases, keep = append(bases, q), append(keep, copyStmts(done))
		}
	}
	candidates := slices.Clone(bases)
	for i, base := range bases {
		q, done, err := inline.Program(base, inline.Options{Keep: keep[i]})
		if err != nil {
			return nil, err
		}
		if len(done) > 0 {
			candidates = append(candidates, q)
		}
	}
	for _, q := range candidates {
		if q == p {
			continue
		}
		dom, err := q.Domains()
		if err != nil {
			return nil, err
		}
		if eq, err := t.Domain().IsEqual(dom); err != nil || eq {
			return q, err
		}
	}
	return p, nil
}

// buffers describes post-tiling fusion's tile-local buffers to AST
// generation.
func (r *Result) buffers() map[string]ast.Buffer {
	if r.Fusion == nil || len(r.Fusion.Buffers) == 0 {
		return nil
	}
	out := map[string]ast.Buffer{}
	for _, b := range r.Fusion.Buffers {
		ab := ast.Buffer{Elem: b.Elem, Fold: b.Fold}
		for d, o := range b.Origin {
			if b.Size != nil {
				ab.Shape = append(ab.Shape, paramExpr(b.Size[d]))
			} else {
				ab.Shape = append(ab.Shape, ast.Int(b.Extent[d]))
			}
			// The origin is in the fused tree's tile coordinates; the
			// mapped tree's prefix may number them otherwise.
			ab.Origin = append(ab.Origin, ast.Affine{Const: o.Const, Params: o.Params, Dims: r.mapping.Origin(b.Array, o.Tile)})
		}
		out[b.Array] = ab
	}
	return out
}

// initialized returns p's temporary arrays whose every read finds a
// write before it in program order (flow's MayNoSource has none of their
// reads): a legal schedule gives each such read its source's value, so
// their memory needs no zeroing.
func initialized(p *scop.Program, flow *deps.Flow) map[string]bool {
	unsourced := map[string]bool{}
	for _, m := range flow.MayNoSource.Maps() {
		if empty, err := m.IsEmpty(); err != nil || !empty {
			unsourced[m.Space().Out.Name] = true
		}
	}
	out := map[string]bool{}
	for _, a := range p.Arrays {
		if !a.LiveIn && !a.LiveOut && !unsourced[a.Name] {
			out[a.Name] = true
		}
	}
	return out
}

// scheduledInline lists the statements a call schedule inlines: those
// of functions it says to inline, and by default of every pure function
// with one definition that is not an output.
func scheduledInline(cs *scop.CallSchedule) []string {
	var out []string
	for _, f := range cs.Funcs {
		k := f.Compute.Kind
		if k == scop.LevelInline || (k == scop.LevelDefault && !f.Output && f.Pure == 1 && len(f.Stmts) == 1) {
			out = append(out, f.Stmts...)
		}
	}
	return out
}

// paramExpr is a buffer size affine in the parameters.
func paramExpr(a fusion.Affine) ast.Expr {
	terms := []ast.Expr{ast.Int(a.Const)}
	names := make([]string, 0, len(a.Params))
	for n := range a.Params {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if k := a.Params[n]; k != 0 {
			terms = append(terms, ast.Mul(k, ast.Var(n)))
		}
	}
	return ast.Add(terms...)
}

// scheduleViolation names the schedule call behind a violation of a
// call schedule's tree: where the source's function is computed (or, by
// default, declared).
func scheduleViolation(p *scop.Program, v scheduler.Violation) error {
	at := scop.Pos{}
	for _, f := range p.Calls.Funcs {
		if slices.Contains(f.Stmts, v.Source) {
			at = f.At
			if f.Compute.At.IsValid() {
				at = f.Compute.At
			}
		}
	}
	return scop.Errorf(at, "the call schedule is illegal: %v", v)
}
