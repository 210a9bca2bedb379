package emit

import (
	"fmt"

	"github.com/tilefuse/tilefuse/ast"
)

// refuseUnbounded rejects an AST with a loop that has no upper bound
// (isl's "for (...; 1; ...)"). A C program's statements have finitely
// many instances, so only a schedule tree over an unbounded domain gives
// one; the function would not return, and its loops could be neither
// shared among threads nor mapped to a GPU.
func refuseUnbounded(n ast.Node) error {
	var err error
	ast.Walk(n, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok && f.Unbounded && err == nil {
			err = fmt.Errorf("emit: the loop over %s has no upper bound (for (int %s = %s; 1; ...)); code that does not end is not emitted", f.Iter, f.Iter, f.Lower)
		}
		return err == nil
	})
	return err
}
