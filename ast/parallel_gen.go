package ast

import (
	"runtime"
	"sync"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// parallelChildren generates the children of the outermost sequence (or
// set) n on one goroutine per CPU: they are separate loop nests, each
// generated from the same statements and state. Each goroutine has its
// own generator (its caches and the ifs it made, merged afterwards) and
// shares the node count. ok is false, and the caller generates the
// children one by one, when a child met a parameter the others do not
// know: parameters are numbered in the order they are met.
func (g *gen) parallelChildren(n *scheduletree.Node, stmts []stmt, st *state) (rs []result, ok bool, err error) {
	kids := n.Children()
	counted := g.nodes.Load()
	type out struct {
		r     result
		sub   *gen
		err   error
		panic any
	}
	outs := make([]out, len(kids))
	next := make(chan int, len(kids))
	for i := range kids {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(kids)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				sub := &gen{opts: g.opts, params: g.params[:len(g.params):len(g.params)], prefix: g.prefix,
					members: map[memberKey]presburger.Map{}, ifs: map[*If]ifInfo{}, nodes: g.nodes}
				func() {
					defer func() {
						if v := recover(); v != nil {
							outs[i].panic = v
						}
					}()
					outs[i].r, outs[i].err = sub.node(kids[i], stmts, st)
				}()
				outs[i].sub = sub
			}
		}()
	}
	wg.Wait()
	for _, o := range outs {
		if o.panic != nil {
			panic(o.panic) // Generate turns overflow and size panics into errors
		}
		if o.err != nil {
			return nil, true, o.err
		}
		if len(o.sub.params) != len(g.params) {
			g.nodes.Store(counted)
			return nil, false, nil
		}
	}
	for _, o := range outs {
		for k, v := range o.sub.ifs {
			g.ifs[k] = v
		}
		if o.r.node != nil {
			rs = append(rs, o.r)
		}
	}
	return rs, true, nil
}
