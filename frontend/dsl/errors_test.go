package dsl_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// base is a pipeline with parameters R and C, variables x and y, an f32
// image in of R x C, and a function out over it, not yet defined.
type base struct {
	p    *dsl.Pipeline
	R, C dsl.Param
	x, y dsl.Var
	in   *dsl.Image
	out  *dsl.Func
}

func newBase() base {
	p := dsl.NewPipeline("p") // @nooutputs
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y := p.Var("x"), p.Var("y")
	in := p.Input("in", dsl.F32, R, C)
	out := p.Func("out", dsl.F32, x.In(0, R), y.In(0, C))
	return base{p, R, C, x, y, in, out}
}

// Each case makes one mistake on the line tagged with its name (a
// comment "// @name"); the error must be reported there, with exactly
// this message (positions in it written FILE:L:C).
var errorCases = []struct {
	name string
	make func(b base)
	msg  string
}{
	{"cycle", func(b base) {
		f := b.p.Func("f", dsl.F32, b.x.In(0, b.R), b.y.In(0, b.C))
		g := b.p.Func("g", dsl.F32, b.x.In(0, b.R), b.y.In(0, b.C))
		f.Define(g.At(b.x, b.y)) // @cycle
		g.Define(f.At(b.x, b.y).Add(1))
		b.out.Define(f.At(b.x, b.y))
		b.p.Output(b.out)
	}, "cyclic pipeline: f reads g, which reads f"},
	{"cycle3", func(b base) {
		f := b.p.Func("f", dsl.F32, b.x.In(0, b.R))
		g := b.p.Func("g", dsl.F32, b.x.In(0, b.R))
		h := b.p.Func("h", dsl.F32, b.x.In(0, b.R))
		h.Define(f.At(b.x)) // @cycle3
		g.Define(h.At(b.x))
		f.Define(g.At(b.x))
		b.out.Define(h.At(b.x).Add(b.in.At(b.x, b.y)))
		b.p.Output(b.out)
	}, "cyclic pipeline: h reads f, which reads g, which reads h"},
	{"undefined", func(b base) {
		f := b.p.Func("f", dsl.F32, b.x.In(0, b.R), b.y.In(0, b.C))
		b.out.Define(f.At(b.x, b.y)) // @undefined
		b.p.Output(b.out)
	}, "out reads f, which is never defined (declared at FILE:L:C)"},
	{"never defined", func(b base) {
		b.out.Define(b.in.At(b.x, b.y))
		b.p.Func("f", dsl.F32, b.x.In(0, b.R)) // @never defined
		b.p.Output(b.out)
	}, "function f is never defined"},
	{"foreign image", func(b base) {
		q := dsl.NewPipeline("q")
		img := q.Input("img", dsl.F32, 4)
		b.out.Define(img.At(b.x)) // @foreign image
	}, "out's definition uses img(x) of pipeline q"},
	{"nil image", func(b base) {
		var img *dsl.Image
		b.out.Define(img.At(b.x, b.y)) // @nil image
	}, "read of a nil image"},
	{"foreign variable", func(b base) {
		z := dsl.NewPipeline("q").Var("z")
		b.p.Func("f", dsl.F32, z.In(0, 4)) // @foreign variable
	}, "variable z belongs to pipeline q, not p"},
	{"coordinates", func(b base) {
		b.out.Define(b.in.At(b.x)) // @coordinates
	}, "in has 2 dimensions, read with 1 coordinate"},
	{"non-affine", func(b base) {
		b.out.Define(b.in.At(b.x.Mul(b.y), b.y)) // @non-affine
	}, "coordinate x * y of in is not affine in the variables and parameters"},
	{"float coordinate", func(b base) {
		b.out.Define(b.in.At(b.in.At(b.x, b.y), b.y)) // @float coordinate
	}, "coordinate 1 of in has type f32, not an integer type"},
	{"float constant coordinate", func(b base) {
		b.out.Define(b.in.At(0.5, b.y)) // @float constant coordinate
	}, "coordinate 1 of in is 0.5, not an integer"},
	{"definition type", func(b base) {
		b.out.Define(dsl.Cast(dsl.U8, b.in.At(b.x, b.y))) // @definition type
	}, "type mismatch: out is f32, the definition has type u8 (convert with dsl.Cast)"},
	{"operand types", func(b base) {
		b.out.Define(b.in.At(b.x, b.y).Add(b.x)) // @operand types
	}, "type mismatch: f32 + i32 (convert one operand with dsl.Cast)"},
	{"constant overflow", func(b base) {
		u := b.p.Input("u", dsl.U8, b.R)
		b.out.Define(dsl.Cast(dsl.F32, u.At(b.x).Add(300))) // @constant overflow
	}, "constant 300 overflows u8"},
	{"float modulo", func(b base) {
		b.out.Define(b.in.At(b.x, b.y).Mod(2)) // @float modulo
	}, "type mismatch: % needs integer operands, has f32"},
	{"division by zero", func(b base) {
		b.out.Define(dsl.Cast(dsl.F32, b.x.Div(0))) // @division by zero
	}, "division by zero"},
	{"select condition", func(b base) {
		b.out.Define(dsl.Select(b.x, 1, 2)) // @select condition
	}, "type mismatch: select condition has type i32, not bool"},
	{"logic on numbers", func(b base) {
		b.out.Define(dsl.Select(b.x.And(b.y), 1, 2)) // @logic on numbers
	}, "type mismatch: && needs bool operands, has i32"},
	{"math arity", func(b base) {
		b.out.Define(dsl.Math("pow", b.in.At(b.x, b.y))) // @math arity
	}, "pow takes 2 arguments, has 1"},
	{"unknown math", func(b base) {
		b.out.Define(dsl.Math("sinh", b.in.At(b.x, b.y))) // @unknown math
	}, "unknown math function sinh"},
	{"case not affine", func(b base) {
		b.out.Define(dsl.When(b.x.Mul(b.y).Gt(2), 0), 1) // @case not affine
	}, "case condition of out: x * y > 2 is not affine"},
	{"case reads", func(b base) {
		b.out.Define(dsl.When(b.in.At(b.x, b.y).Gt(2), 0), 1) // @case reads
	}, "case condition of out: in(x, y) > 2 is not affine: it reads memory (choose with dsl.Select instead)"},
	{"case not bool", func(b base) {
		b.out.Define(dsl.When(b.x, 0), 1) // @case not bool
	}, "case condition of out: x has type i32, not bool"},
	{"default not last", func(b base) {
		b.out.Define(0, dsl.When(b.x.Eq(0), 1)) // @default not last
	}, "argument 1 of out's Define is not a Case: only the last may be a plain value (the default)"},
	{"defined twice", func(b base) {
		b.out.Define(0)
		b.out.Define(1) // @defined twice
	}, "function out is already defined (at FILE:L:C)"},
	{"no value", func(b base) {
		b.out.Define() // @no value
	}, "Define of out has no value"},
	{"foreign variable in definition", func(b base) {
		z := b.p.Var("z")
		b.out.Define(b.in.At(b.x, z)) // @foreign variable in definition
	}, "out's definition uses variable z"},
	{"reduction variable in pure definition", func(b base) {
		r := b.p.RDom("r", dsl.Range(0, 4))
		b.out.Define(b.in.At(b.x, r.X)) // @reduction variable in pure definition
	}, "out's definition uses reduction variable r.x"},
	{"update first", func(b base) {
		b.out.At(b.x, b.y).Set(0) // @update first
	}, "update of out before its pure definition (call out.Define first)"},
	{"update value variable", func(b base) {
		b.out.Define(0)
		b.out.At(b.x, 0).Set(b.in.At(b.x, b.y)) // @update value variable
	}, "update of out: its value uses variable y, which its coordinates do not"},
	{"update foreign variable", func(b base) {
		z := b.p.Var("z")
		b.out.Define(0)
		b.out.At(b.x, z).Set(1) // @update foreign variable
	}, "update of out uses variable z"},
	{"update type", func(b base) {
		b.out.Define(0)
		b.out.At(b.x, b.y).Set(b.x) // @update type
	}, "type mismatch: out is f32, the update has type i32 (convert with dsl.Cast)"},
	{"no outputs", func(b base) {
		b.out.Define(0)
	}, "pipeline p has no outputs (declare them with Output)"},
	{"same name", func(b base) {
		b.p.Func("in", dsl.F32) // @same name
	}, "function in has the same name as image in (declared at FILE:L:C)"},
	{"not an identifier", func(b base) {
		b.p.Var("a-b") // @not an identifier
	}, `variable name "a-b" is not an identifier`},
	{"reserved", func(b base) {
		b.p.Param("for") // @reserved
	}, `parameter name "for" is reserved`},
	{"bool function", func(b base) {
		b.p.Func("f", dsl.Bool) // @bool function
	}, "function f has element type bool; functions hold numbers"},
	{"variable twice", func(b base) {
		b.p.Func("f", dsl.F32, b.x.In(0, 4), b.x.In(0, 4)) // @variable twice
	}, "function f uses variable x twice"},
	{"extent not affine", func(b base) {
		b.p.Input("img", dsl.F32, b.R.Mul(b.C)) // @extent not affine
	}, "extent of image img: R * C is not affine"},
	{"bound uses a variable", func(b base) {
		b.p.Func("f", dsl.F32, b.x.In(0, b.y)) // @bound uses a variable
	}, "bound of variable x of f: y is not an expression of parameters and constants"},
	{"assumption variable", func(b base) {
		b.p.Assume(b.x.Ge(0)) // @assumption variable
	}, "assumption uses variable x"},
	{"assumption not affine", func(b base) {
		b.p.Assume(b.R.Mul(b.C).Ge(4)) // @assumption not affine
	}, "assumption: R * C >= 4 is not affine"},
	{"empty reduction domain", func(b base) {
		b.p.RDom("r") // @empty reduction domain
	}, "reduction domain r has no intervals"},
	{"missing reduction variable", func(b base) {
		r := b.p.RDom("r", dsl.Range(0, 4))
		b.out.Define(0)
		b.out.At(b.x, r.Z).Set(1) // @missing reduction variable
	}, "use of a reduction variable its domain does not have (an RDom has as many of X, Y, Z, W as intervals)"},
	{"where uses a variable", func(b base) {
		r := b.p.RDom("r", dsl.Range(0, 4))
		r.Where(r.X.Lt(b.x)) // @where uses a variable
	}, "condition of reduction domain r uses variable x"},
	{"read outside", func(b base) {
		b.out.Define(b.in.At(b.x, b.y.Add(1))) // @read outside
		b.p.Output(b.out)
	}, "out reads in(x, y + 1) outside the extents of in: in(0, 1) at x = 0, y = 0 when R = 1, C = 1"},
	{"read outside a case", func(b base) {
		f := b.p.Func("f", dsl.F32, b.x.In(0, b.R), b.y.In(0, b.C))
		f.Define(dsl.When(b.x.Gt(0), b.in.At(b.x, b.y)))
		b.out.Define(f.At(b.x, b.y)) // @read outside a case
		b.p.Output(b.out)
	}, "out reads f(x, y) outside f's domain: f(0, 0) at x = 0, y = 0 when R = 1, C = 1"},
	{"write outside", func(b base) {
		r := b.p.RDom("r", dsl.Range(0, b.R))
		b.out.Define(0)
		b.out.At(r.X.Add(1), 0).Set(1) // @write outside
		b.p.Output(b.out)
	}, "out's update 1 writes out(r.x + 1, 0) outside out's domain: out(1, 0) at r.x = 0 when R = 1, C = 1"},
	{"recurrence reads later", func(b base) {
		s := b.p.Func("s", dsl.F32, b.x.In(0, b.R))
		s.Define(dsl.When(b.x.Eq(b.R.Sub(1)), 0), s.At(b.x.Add(1))) // @recurrence reads later
		b.out.Define(s.At(b.x))
		b.p.Output(b.out)
	}, "s reads s(x + 1) before computing it: s(1) at x = 0 when R = 2, C = 1"},
	{"finish", func(b base) {
		f := b.p.Func("out_s0", dsl.F32, b.x.In(0, b.R), b.y.In(0, b.C))
		f.Define(0)
		b.out.Define(f.At(b.x, b.y)) // @finish
		b.p.Output(b.out)
	}, "statement out_s0 has the same name as array out_s0"},
}

var tagRE = regexp.MustCompile(`// @([a-z0-9 -]+)$`)

var posInMsg = regexp.MustCompile(`\S+errors_test\.go:\d+:\d+`)

func TestErrors(t *testing.T) {
	lines := tagLines(t)
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			b := newBase()
			tc.make(b)
			_, err := b.p.Build()
			var e *scop.Error
			if !errors.As(err, &e) {
				t.Fatalf("Build() = %v, want a *scop.Error", err)
			}
			if got := posInMsg.ReplaceAllString(e.Msg, "FILE:L:C"); got != tc.msg {
				t.Errorf("message\n got %s\nwant %s", got, tc.msg)
			}
			tag := tc.name
			if tag == "no outputs" {
				tag = "nooutputs"
			}
			if filepath.Base(e.Pos.File) != "errors_test.go" || e.Pos.Line != lines[tag] || e.Pos.Col <= 0 {
				t.Errorf("position %s, want errors_test.go:%d with a column", e.Pos, lines[tag])
			}
		})
	}
}

// tagLines maps each "// @tag" comment of this file to its line.
func tagLines(t *testing.T) map[string]int {
	src, err := os.ReadFile("errors_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for i, l := range strings.Split(string(src), "\n") {
		if m := tagRE.FindStringSubmatch(l); m != nil {
			lines[m[1]] = i + 1
		}
	}
	return lines
}

// TestErrorColumn pins one position exactly: the column of the API call.
func TestErrorColumn(t *testing.T) {
	b := newBase()
	b.out.Define(b.in.At(b.x)) // the At call starts at column 20
	_, err := b.p.Build()
	var e *scop.Error
	if !errors.As(err, &e) || e.Pos.Col != 20 || filepath.Base(e.Pos.File) != "errors_test.go" {
		t.Fatalf("Build() = %v, want the error at errors_test.go column 20", err)
	}
	if want := lineOf(t, "the At call starts at column 20"); e.Pos.Line != want {
		t.Errorf("line %d, want %d", e.Pos.Line, want)
	}
}

func lineOf(t *testing.T, marker string) int {
	src, err := os.ReadFile("errors_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "// "+marker) {
			return i + 1
		}
	}
	t.Fatalf("no line marked %q", marker)
	return 0
}
