package calc

import "strings"

// Program is a parsed calculator program.
type Program struct {
	File  string
	Src   string
	Stmts []*Stmt
}

// Stmt is NAME := X (Name set) or X alone, which prints the value of X.
type Stmt struct {
	Pos  Pos
	Name string
	X    Expr
}

// Expr is an expression. String gives a fully parenthesised form that parses
// back to the same tree.
type Expr interface {
	Position() Pos
	String() string
}

// Literal is a set or map in isl notation. Src is the raw text, so that any
// evaluator (tilefuse or isl) reads exactly what the user wrote.
type Literal struct {
	Pos Pos
	Src string
}

// Name refers to the value of an earlier assignment.
type Name struct {
	Pos  Pos
	Name string
}

// Unary is a prefix operator (dom, ran, ...) or the postfix ^-1.
type Unary struct {
	Pos Pos // of the operator
	Op  UnOp
	X   Expr
}

// Binary is X op Y.
type Binary struct {
	Pos  Pos // of the operator
	Op   BinOp
	X, Y Expr
}

// Call is the application F(Arg): the image of set Arg under map F.
type Call struct {
	Pos    Pos // of the opening parenthesis
	F, Arg Expr
}

// UnOp is a unary operator.
type UnOp int

const (
	Dom UnOp = iota
	Ran
	LexMin
	LexMax
	Coalesce
	Sample
	Params
	Deltas
	Card
	Inverse // postfix ^-1
)

var unOpNames = [...]string{Dom: "dom", Ran: "ran", LexMin: "lexmin", LexMax: "lexmax",
	Coalesce: "coalesce", Sample: "sample", Params: "params", Deltas: "deltas", Card: "card", Inverse: "^-1"}

func (o UnOp) String() string { return unOpNames[o] }

// prefixOps maps the prefix keywords to their operators; these words cannot
// be used as names.
var prefixOps = map[string]UnOp{"dom": Dom, "ran": Ran, "lexmin": LexMin, "lexmax": LexMax,
	"coalesce": Coalesce, "sample": Sample, "params": Params, "deltas": Deltas, "card": Card}

// BinOp is a binary operator.
type BinOp int

const (
	Union BinOp = iota
	Subtract
	Intersect
	Gist
	Join
	Equal
	Subset
)

var binOpNames = [...]string{Union: "+", Subtract: "-", Intersect: "*", Gist: "%", Join: ".",
	Equal: "=", Subset: "<="}

func (o BinOp) String() string { return binOpNames[o] }

func (e *Literal) Position() Pos { return e.Pos }
func (e *Name) Position() Pos    { return e.Pos }
func (e *Unary) Position() Pos   { return e.Pos }
func (e *Binary) Position() Pos  { return e.Pos }
func (e *Call) Position() Pos    { return e.Pos }

func (e *Literal) String() string { return e.Src }
func (e *Name) String() string    { return e.Name }
func (e *Unary) String() string {
	if e.Op == Inverse {
		return "(" + e.X.String() + ")^-1"
	}
	return "(" + e.Op.String() + " " + e.X.String() + ")"
}
func (e *Binary) String() string {
	return "(" + e.X.String() + " " + e.Op.String() + " " + e.Y.String() + ")"
}
func (e *Call) String() string { return "(" + e.F.String() + ")(" + e.Arg.String() + ")" }

// String prints the program, one statement a line, expressions parenthesised.
func (p *Program) String() string {
	var b strings.Builder
	for _, s := range p.Stmts {
		if s.Name != "" {
			b.WriteString(s.Name + " := ")
		}
		b.WriteString(s.X.String() + ";\n")
	}
	return b.String()
}
