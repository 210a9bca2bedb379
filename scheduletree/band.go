package scheduletree

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// Option is the AST generation option of one band member (isl's
// isl_ast_loop_type).
type Option int

// The member options.
const (
	// OptionDefault leaves the choice to the AST generator.
	OptionDefault Option = iota
	// OptionAtomic generates one loop whose body covers all statements at
	// once (no loop splitting).
	OptionAtomic
	// OptionUnroll unrolls the member's loop completely.
	OptionUnroll
	// OptionSeparate separates the loop into pieces with uniform bodies
	// (full and partial tiles).
	OptionSeparate
)

var optionNames = [...]string{"default", "atomic", "unroll", "separate"}

// String returns the option's name: "default", "atomic", "unroll" or
// "separate" (isl's names in its "options" union sets).
func (o Option) String() string {
	if o >= 0 && int(o) < len(optionNames) {
		return optionNames[o]
	}
	return fmt.Sprintf("Option(%d)", int(o))
}

func optionByName(s string) (Option, bool) {
	for i, n := range optionNames {
		if n == s {
			return Option(i), true
		}
	}
	return 0, false
}

// Band is the partial schedule of a band node with n >= 1 members.
//
// Schedule maps each statement instance to an unnamed n-tuple, one map per
// statement space; each statement's map is a (piecewise quasi-affine)
// function, total on the instances that reach the band. Member k of the
// band is output dimension k.
type Band struct {
	Schedule presburger.UnionMap
	// Permutable says that the members can be freely interchanged (and
	// tiled): every dependence is carried forward or not at all by each.
	Permutable bool
	// Coincident[k] says that member k carries no dependence: its loop is
	// parallel.
	Coincident []bool
	// Options[k] is the AST option of member k.
	Options []Option
	// Isolate is isl's "isolate" AST option, or nil: a set of the space
	// isolate[[outer] -> [members]] (the band's prefix schedule, the
	// outer band members, wrapped with the band's members), as in the
	// options "{ isolate[[t] -> [i, j]] : ... }". The AST generator
	// generates the points in it (projected to each member and hulled,
	// as isl does) apart from the others, which come before and after.
	// An isolate set of another depth than the band's is ignored, as isl
	// ignores it.
	Isolate *presburger.Set
	// IsolateOptions[k] is member k's AST option inside the isolated
	// part (isl's "[isolate[] -> unroll[k]]"); nil or shorter than the
	// band means default.
	IsolateOptions []Option
}

// IsolateOption returns member k's option inside the isolated part.
func (b Band) IsolateOption(k int) Option {
	if k < len(b.IsolateOptions) {
		return b.IsolateOptions[k]
	}
	return OptionDefault
}

// Members returns the number of band members: the range dimension of the
// schedule, or len(Coincident) when the schedule has no statement.
func (b Band) Members() int {
	if ms := b.Schedule.Maps(); len(ms) > 0 {
		return ms[0].Space().NOut()
	}
	return len(b.Coincident)
}

func (b Band) clone() Band {
	b.Coincident = append([]bool(nil), b.Coincident...)
	b.Options = append([]Option(nil), b.Options...)
	b.IsolateOptions = append([]Option(nil), b.IsolateOptions...)
	return b
}

// normalized returns a copy with Coincident and Options of length Members().
func (b Band) normalized() Band {
	b = b.clone()
	n := b.Members()
	for len(b.Coincident) < n {
		b.Coincident = append(b.Coincident, false)
	}
	for len(b.Options) < n {
		b.Options = append(b.Options, OptionDefault)
	}
	return b
}

// anyCoincident reports whether some member is coincident.
func (b Band) anyCoincident() bool {
	for _, c := range b.Coincident {
		if c {
			return true
		}
	}
	return false
}

// anyOption reports whether some member has a non-default option.
func (b Band) anyOption() bool {
	for _, o := range b.Options {
		if o != OptionDefault {
			return true
		}
	}
	return false
}
