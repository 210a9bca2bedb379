package main

import (
	"fmt"

	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// refuseIllegal checks a schedule tree from the user (file) against p's
// dependences and the flags of its bands, as check-tree does, before
// code is generated from it. When the tree is illegal it prints the
// first violation, with its pair of instances, and returns exitCheck and
// true; --unchecked skips the check.
func refuseIllegal(e *env, cmd, file string, p *scop.Program, t scheduletree.Tree) (int, bool) {
	vs, err := checkTree(p, t)
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse %s: %s: checking the tree: %s\n", cmd, file, oneLine(err))
		return exitUsage, true
	}
	if len(vs) == 0 {
		return exitOK, false
	}
	more := ""
	if len(vs) > 1 {
		more = fmt.Sprintf(" (and %d more; 'tilefuse check-tree' lists them all)", len(vs)-1)
	}
	fmt.Fprintf(e.stderr, "tilefuse %s: %s: illegal tree, refused (--unchecked generates its code anyway): %s%s\n",
		cmd, file, vs[0], more)
	return exitCheck, true
}
