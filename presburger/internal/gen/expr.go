package gen

// Expr is a calculator expression over a case's definitions: a Name, or an
// operator applied to operands. Op is an infix operator ("+", "-", "*",
// ".", "%", "=", "<="), a prefix one ("dom", "ran", ...), "^-1", or "()"
// for the application Args[0](Args[1]).
type Expr struct {
	Name string
	Op   string
	Args []*Expr
}

func leaf(name string) *Expr { return &Expr{Name: name} }

func bin(op string, x, y *Expr) *Expr { return &Expr{Op: op, Args: []*Expr{x, y}} }

func un(op string, x *Expr) *Expr { return &Expr{Op: op, Args: []*Expr{x}} }

// String prints e with every operation parenthesised, so precedence never
// matters.
func (e *Expr) String() string {
	switch {
	case e.Name != "":
		return e.Name
	case e.Op == "^-1":
		return "(" + e.Args[0].String() + ")^-1"
	case e.Op == "()":
		return "(" + e.Args[0].String() + ")(" + e.Args[1].String() + ")"
	case len(e.Args) == 1:
		return "(" + e.Op + " " + e.Args[0].String() + ")"
	}
	return "(" + e.Args[0].String() + " " + e.Op + " " + e.Args[1].String() + ")"
}

// replacements returns e with one operation replaced by one of its operands,
// in every possible way.
func (e *Expr) replacements() []*Expr {
	var out []*Expr
	for i, a := range e.Args {
		out = append(out, a)
		for _, r := range a.replacements() {
			args := append([]*Expr(nil), e.Args...)
			args[i] = r
			out = append(out, &Expr{Op: e.Op, Args: args})
		}
	}
	return out
}

// names adds the names e mentions to set.
func (e *Expr) names(set map[string]bool) {
	if e.Name != "" {
		set[e.Name] = true
	}
	for _, a := range e.Args {
		a.names(set)
	}
}
