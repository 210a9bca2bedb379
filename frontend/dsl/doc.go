// Package dsl writes image pipelines in Go, in the model of PolyMage and
// Halide, and builds them into polyhedral programs (*scop.Program).
//
// # Model
//
// A Pipeline has integer size Parameters (with Assume'd constraints: the
// program's context), input Images (live-in arrays with extents affine in
// the parameters) and Funcs: functions from integer coordinates to values
// of one element type, over a box domain given per Var by an Interval
// [lo, hi), bounds affine in the parameters. Go has no operator
// overloading, so expressions are built with methods and functions:
//
//	blurx := p.Func("blurx", dsl.F32, x.In(1, R.Add(1)), y.In(0, C.Add(2)))
//	blurx.Define(dsl.Add(in.At(x.Sub(1), y), in.At(x, y), in.At(x.Add(1), y)).Div(3))
//
// is blurx(x, y) = (in(x-1, y) + in(x, y) + in(x+1, y)) / 3 over
// 1 <= x < R+1, 0 <= y < C+2. Func.String prints that notation back.
//
// Reads (Func.At, Image.At) take one coordinate per dimension: affine in
// the variables and parameters, with x.Div(2) the floor division that
// up-sampling needs and x.Mul(2).Add(1) the stride of down-sampling; or
// data-dependent, containing a read, such as cdf.At(in.At(x, y)). Any
// other coordinate (x.Mul(y)) is an error. Data-dependent reads become
// may-reads of the whole array.
//
// A pure definition (Define) may be piecewise: cases When(cond, value)
// with affine conditions on the function's variables and the parameters,
// tried in order, then a default value. Updates follow, in order, in
// Halide's style: f.At(coords).Set(value) or .Incr(value) (Halide's +=),
// where the coordinates may use the function's variables (the update runs
// over their intervals), reduction variables of an RDom (it runs over the
// reduction domain), and reads: hist.At(in.At(r.X, r.Y)).Incr(1) is a
// histogram, a data-dependent write that the statement marks MayWrite.
// A definition may read its own function: an update reads the values of
// the earlier definitions, a pure definition the points computed before in
// loop order (a recurrence; Build proves it reads nothing later).
//
// Output declares the results (live-out arrays). Every other function is
// a temporary, and functions no output needs are left out.
//
// # Storage
//
// A function's array holds its domain's bounding box: dimension k has
// extent hi_k - lo_k and coordinate v is element v - lo_k, in row-major
// order with the first variable outermost. Images are indexed from 0.
//
// # Program order
//
// Functions run in a topological order of the producer/consumer graph,
// taking the earliest declared function among those ready. Each runs its
// pure definition, then its updates. A stage loops over its variables in
// declared order, the first outermost, each increasing; an update over
// the function's variables its coordinates use, in declared order, then
// over the reduction domains' variables (X outermost).
//
// Each pure case and each update is one statement, named f_s0 (or
// f_s0_c0, f_s0_c1, ... for cases, the default last) and f_s1, f_s2, ...
// for updates, as Halide numbers stages. Its schedule is
//
//	f_s0_cK[x, y] -> [stage, x, y, 0, ..., 0, K]
//
// with stage the statement's position in program order (the cases of one
// pure definition share it), the iterators padded with zeros to the
// deepest stage's depth, and the case number last (0 for updates).
//
// # Types
//
// Variables, reduction variables and parameters are i32, as in Halide.
// Image and function reads have their element type. Typed operands of an
// operator or a Select must have the same type: mixing types is an error,
// to be resolved with Cast, so that no conversion happens unseen. A Go
// constant (1, 0.5) is untyped and takes the type of the operand it
// meets, as Go's constants do; it must be representable in it (300 is no
// u8, 0.5 no integer). Two constants fold to a constant, exactly as Go
// folds constant expressions, except that Div floors. A constant that
// meets nothing typed becomes i32 or f32. A definition's value must have
// the function's type (a constant takes it).
//
// Arithmetic keeps its operands' type and wraps as C's fixed-width types
// do (u8 + u8 is u8). Div is floor division on integers (as in Halide;
// identical to C's for non-negative operands) and IEEE division on
// floats; Mod is integer only and rounds like Div, so Mod(-1, 4) is 3.
// Comparisons, And, Or and Not give bool, the type of conditions only.
// Math functions (Sin, Sqrt, Pow, ...: scop.MathFuncs) take floats, and
// convert integer arguments to f32 as Halide does, except Abs, which
// keeps integers. The program states every conversion as a scop.Cast.
//
// # Schedules
//
// A pipeline may say how it is to be computed, as Halide's schedules
// do, without changing what it computes: ComputeRoot, ComputeAt,
// ComputeInline, StoreRoot, StoreAt, Split, Tile, Reorder, Parallel,
// Vectorize, Unroll and FoldStorage on a Func. Build records them in
// the program (scop.Program.Calls) and `--fuse schedule` compiles them
// (fusion.Scheduled); every other strategy ignores them. Loops are
// named by variables and listed outermost first, as dimensions are
// (Halide lists them innermost first): Reorder(y, x) runs y outside x,
// Tile(y, x, yo, xo, yi, xi, 4, 8) gives yo, xo, yi, xi. Without calls, a
// pure function with one definition that is not an output is inlined,
// any other computed at the root. A schedule that names a loop a
// function does not have, computes a producer outside one of its
// consumers' loops, or shares storage between parallel iterations is a
// *scop.Error at the call.
//
// # Errors
//
// Misuse does not panic (short of methods of a nil *Func): the pipeline keeps
// the first error and Build returns it, a *scop.Error at the user's
// source position of the call that caused it. The runtime reports lines
// only; the column is that of the call on that line to the API function
// that failed (the first, when one line calls it several times), read
// from the source file, and 0 when that cannot be read. Build also proves
// with presburger that affine reads stay inside the images' extents and
// the points that functions define, and that updates write inside their
// function's domain, reporting the least offending point.
package dsl
