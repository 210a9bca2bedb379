package jscop

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// pollyInstances is the map from the instances of JSCoP statement name
// to those of t, where Polly counts each loop's iterations from 0 (its
// canonical induction variables) and t's iterators are the C ones: x_d =
// y_d + lb_d, lb_d being t's lower bound of x_d in the outer iterators.
// Where a lower bound is not one affine expression (a max, a floor), the
// dimension is kept as it is, and matching will say what differs.
func pollyInstances(name string, t *scop.Stmt) (presburger.Map, error) {
	n := t.Domain.Space().Out.Len()
	iters := make([]string, n)
	for i := range iters {
		iters[i] = fmt.Sprintf("x%d", i)
	}
	var params []string
	ys := make([]string, n)
	for d := range n {
		ys[d] = iters[d]
		pw, err := t.Domain.DimMinOuter(d)
		if err != nil || len(pw.Pieces) != 1 || len(pw.Pieces[0].Aff.Divs) > 0 {
			continue
		}
		params = pw.Space.Params
		row := pw.Pieces[0].Aff.Rows[0]
		terms := []string{fmt.Sprint(row[0])}
		for k, p := range pw.Space.Params {
			terms = append(terms, fmt.Sprintf("%d*%s", row[1+k], p))
		}
		for k := range d {
			terms = append(terms, fmt.Sprintf("%d*%s", row[1+len(pw.Space.Params)+k], iters[k]))
		}
		ys[d] = fmt.Sprintf("%s - (%s)", iters[d], strings.Join(terms, " + "))
	}
	if params == nil {
		params = t.Domain.Space().Params
	}
	src := fmt.Sprintf("[%s] -> { %s[%s] -> %s[%s] }", strings.Join(params, ", "), t.Name, strings.Join(iters, ", "), name, strings.Join(ys, ", "))
	m, err := presburger.ParseMap(src)
	if err != nil {
		return m, fmt.Errorf("the instances of %s as Polly's %s: %v", t.Name, name, err)
	}
	return m.Reverse()
}
