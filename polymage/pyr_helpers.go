package polymage

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// pyramid is the level geometry of PolyMage's pyramid pipelines (pyramid
// blending, multiscale interpolation, local Laplacian). Level l of an
// R x C image has floor(R/2^l) x floor(C/2^l) pixels, stored with a ghost
// ring of g pixels on every side: a level's function is defined over the
// box [0, R_l+2g) x [0, C_l+2g), its interior is [g, R_l+g) x [g, C_l+g),
// and interior pixel i of level l+1 lies over pixels 2i and 2i+1 of
// level l. Filter stages compute the interior and set the ring to 0, as
// PolyMage's interpolation and local Laplacian do, so that every tap
// reads a defined point and every access stays plainly affine (no
// clamping min/max in subscripts). Coarse levels
// of a small image may have an empty interior: they are then all ring.
type pyramid struct {
	R, C dsl.Param
	g    int
	x, y dsl.Var
}

// rows is R_l = floor(R/2^l).
func (q *pyramid) rows(l int) dsl.Expr {
	if l == 0 {
		return q.R.Expr
	}
	return q.R.Div(1 << l)
}

// cols is C_l = floor(C/2^l).
func (q *pyramid) cols(l int) dsl.Expr {
	if l == 0 {
		return q.C.Expr
	}
	return q.C.Div(1 << l)
}

// xdim and ydim are the boxes of x at level xl and of y at level yl.
func (q *pyramid) xdim(xl int) dsl.Dim { return q.x.In(0, q.rows(xl).Add(2*q.g)) }
func (q *pyramid) ydim(yl int) dsl.Dim { return q.y.In(0, q.cols(yl).Add(2*q.g)) }

// inside is the interior of rows of level xl and columns of level yl.
func (q *pyramid) inside(xl, yl int) dsl.Expr {
	return dsl.And(q.x.Ge(q.g), q.x.Lt(q.rows(xl).Add(q.g)), q.y.Ge(q.g), q.y.Lt(q.cols(yl).Add(q.g)))
}

// reader reads a level-shaped function or image at (x, y); the closure
// supplies any leading coordinates (a channel, an intensity level).
type reader func(x, y any) dsl.Expr

// funcReader makes a reader of a function whose leading coordinates are lead.
func funcReader(f *dsl.Func, lead ...any) reader {
	return func(x, y any) dsl.Expr { return f.At(append(append([]any{}, lead...), x, y)...).Expr }
}

// imageReader makes a reader of an image whose leading coordinates are lead.
func imageReader(img *dsl.Image, lead ...any) reader {
	return func(x, y any) dsl.Expr { return img.At(append(append([]any{}, lead...), x, y)...) }
}

// downFilter is a separable down-sampling filter: coarse interior pixel
// i reads fine pixels 2i+off[k] with weights w[k] (a weight of 1 is a
// plain read), summed left to right, then multiplied by scale.
type downFilter struct {
	off   []int
	w     []float64
	scale float64
}

// apply is the filtered value whose centre, in fine array coordinates,
// is centre; at reads the fine level there.
func (d downFilter) apply(centre dsl.Expr, at func(i dsl.Expr) dsl.Expr) dsl.Expr {
	terms := make([]any, len(d.off))
	for k, o := range d.off {
		t := at(centre.Add(o))
		if d.w[k] != 1 {
			t = t.Mul(d.w[k])
		}
		terms[k] = t
	}
	return dsl.Add(terms[0], terms[1], terms[2:]...).Mul(d.scale)
}

// upFilter is a 1-D up-sampling along v: the value at fine array
// coordinate v from reads at(i) of the coarse level (array coordinates).
// With parity set, even is the value at even v and odd at odd v (two
// cases); otherwise odd serves every v.
type upFilter func(v dsl.Var, at func(i dsl.Expr) dsl.Expr) (even, odd dsl.Expr, parity bool)

// stage declares name over the dimensions lead, then x at level xl and y
// at level yl, and defines it as 0 on the ghost ring and by even and odd
// (by parity of v when parity is set) on the interior. The ring is the
// first case: the others, which exclude the earlier ones, are then plain
// boxes, where a ring case last would be the box minus the interior's
// parity pieces, eight pieces rather than four.
func (q *pyramid) stage(p *dsl.Pipeline, name string, lead []dsl.Dim, xl, yl int, v dsl.Var, even, odd dsl.Expr, parity bool) *dsl.Func {
	dims := append(append([]dsl.Dim{}, lead...), q.xdim(xl), q.ydim(yl))
	f := p.Func(name, dsl.F32, dims...)
	ring := q.inside(xl, yl).Not()
	if parity {
		f.Define(dsl.When(ring, 0), dsl.When(v.Mod(2).Eq(0), even), odd)
	} else {
		f.Define(dsl.When(ring, 0), odd)
	}
	return f
}

// downX filters src (level l-1) along x and keeps every other row: the
// result has rows of level l and columns of level l-1.
func (q *pyramid) downX(p *dsl.Pipeline, name string, lead []dsl.Dim, l int, src reader, d downFilter) *dsl.Func {
	centre := q.x.Mul(2).Sub(q.g) // fine array row of coarse row x
	v := d.apply(centre, func(i dsl.Expr) dsl.Expr { return src(i, q.y) })
	return q.stage(p, name, lead, l, l-1, q.x, v, v, false)
}

// downY filters src (rows of level l, columns of level l-1) along y and
// keeps every other column: the result is level l.
func (q *pyramid) downY(p *dsl.Pipeline, name string, lead []dsl.Dim, l int, src reader, d downFilter) *dsl.Func {
	centre := q.y.Mul(2).Sub(q.g)
	v := d.apply(centre, func(i dsl.Expr) dsl.Expr { return src(q.x, i) })
	return q.stage(p, name, lead, l, l, q.y, v, v, false)
}

// upX up-samples src (level l+1) along x: the result has rows of level l
// and columns of level l+1.
func (q *pyramid) upX(p *dsl.Pipeline, name string, lead []dsl.Dim, l int, src reader, u upFilter) *dsl.Func {
	even, odd, parity := u(q.x, func(i dsl.Expr) dsl.Expr { return src(i, q.y) })
	return q.stage(p, name, lead, l, l+1, q.x, even, odd, parity)
}

// upY up-samples src (rows of level l, columns of level l+1) along y:
// the result is level l.
func (q *pyramid) upY(p *dsl.Pipeline, name string, lead []dsl.Dim, l int, src reader, u upFilter) *dsl.Func {
	even, odd, parity := u(q.y, func(i dsl.Expr) dsl.Expr { return src(q.x, i) })
	return q.stage(p, name, lead, l, l, q.y, even, odd, parity)
}

// box declares an f32 function over lead and the whole box of level l,
// for the point-wise stages (differences, blends, sums), which need no
// ring case: the ring of their operands is defined.
func (q *pyramid) box(p *dsl.Pipeline, name string, lead []dsl.Dim, l int) *dsl.Func {
	return q.boxOf(p, name, dsl.F32, lead, l)
}

// boxOf is box with element type t.
func (q *pyramid) boxOf(p *dsl.Pipeline, name string, t dsl.Type, lead []dsl.Dim, l int) *dsl.Func {
	dims := append(append([]dsl.Dim{}, lead...), q.xdim(l), q.ydim(l))
	return p.Func(name, t, dims...)
}

// fillRing fills b with SyntheticRange's picture of samples in [0, max]
// and clears a ring of width g around its last two dimensions: the
// ghost zone, zero as PolyMage's drivers leave it.
func fillRing(b *scop.Buffer, seed uint64, max, g int64) {
	SyntheticRange(b, seed, max)
	rows, cols := planeShape(b.Shape)
	if rows*cols == 0 {
		return
	}
	for i := range b.Len() {
		r, c := i/cols%rows, i%cols
		if r < g || r >= rows-g || c < g || c >= cols-g {
			b.Store(i, scop.Value{})
		}
	}
}
