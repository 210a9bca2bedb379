package scheduler

import (
	"errors"
	"fmt"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// overwritten returns the reads of flow m (source S -> sink T) that an
// execution of another instance writing the same element reaches first:
// a map from the wrapped pair [sink -> source] to the wrapped times
// [sink time -> overwrite time] at which the sink runs after that write
// with no execution of its source in between. For a tile-local array
// (depth > 0) only writes in the sink's tile count. xs, xt and xw are the
// executions of S, T and the writer w (statement W); ws and ww the write
// accesses of S and W; fromW the flow from W to T: a write that the
// program itself lets reach the read (a may-write between the source and
// the sink) is no overwrite.
func overwritten(m, xs, xt, xw, ws, ww, fromW presburger.Map, same bool, depth int) (presburger.Map, error) {
	var e mapErrs
	pairs := e.m(m.Reverse())            // sink -> source
	toSource := e.m(pairs.RangeMap())    // [sink -> source] -> source
	elem := e.m(toSource.ApplyRange(ws)) // -> the element it wrote
	other := e.m(elem.ApplyRange(e.m(ww.Reverse())))
	if same {
		other = e.m(other.Subtract(toSource)) // another instance of S
	}
	if fromW.Space().In.Name != "" {
		allowed := e.m(e.m(pairs.DomainMap()).ApplyRange(e.m(fromW.Reverse())))
		other = e.m(other.Subtract(allowed))
	}
	if e.err != nil {
		return other, e.err
	}
	if empty, err := other.IsEmpty(); err != nil || empty {
		return other, err
	}
	timeSpace := presburger.SetSpace(xt.Space().Params, xt.Space().Out)
	width := xt.Space().NOut()
	if xs.Space().NOut() != width || xw.Space().NOut() != width {
		return other, fmt.Errorf("times of different widths")
	}
	// after: t -> t' with t <lex t', agreeing on the first depth
	// dimensions (the tile of a tile-local buffer).
	after := presburger.EmptyMap(presburger.MapSpace(timeSpace.Params, timeSpace.Out, timeSpace.Out))
	for level := depth; level < width; level++ {
		after = e.m(after.Union(presburger.LexLTAt(timeSpace, level)))
	}
	sinkTimes := e.m(e.m(pairs.DomainMap()).ApplyRange(xt)) // key -> tr
	writeTimes := e.m(other.ApplyRange(xw))                 // key -> t'
	cand := e.m(sinkTimes.RangeProduct(writeTimes))         // key -> [tr -> t']
	// t' before tr.
	order := e.m(after.Reverse()) // tr -> t' with t' before tr
	wrapped, err := order.Wrap()
	if err != nil {
		return cand, err
	}
	cand = e.m(cand.IntersectRange(wrapped))
	// A source execution ts between them: t' < ts < tr.
	between := e.m(after.RangeProduct(e.m(after.Reverse()))) // ts -> [tr -> t']
	refreshed := e.m(e.m(toSource.ApplyRange(xs)).ApplyRange(between))
	if e.err != nil {
		return cand, e.err
	}
	return cand.Subtract(refreshed)
}

// overwriteViolations runs overwritten for every flow of f and every
// statement writing the source's array, returning one example per flow.
func overwriteViolations(p *scop.Program, f *deps.Flow, byStmt map[string]presburger.Map, scope map[string]int) ([]Violation, error) {
	writers := map[string][]*scop.Stmt{}
	for _, s := range p.Stmts {
		writers[s.Write.Array] = append(writers[s.Write.Array], s)
	}
	flows := map[[2]string]presburger.Map{}
	for _, m := range f.May.Maps() {
		flows[[2]string{m.Space().In.Name, m.Space().Out.Name}] = m
	}
	var out []Violation
	inj := injectivity{}
	for _, m := range f.May.Maps() {
		src, sink := m.Space().In.Name, m.Space().Out.Name
		xs, xt := byStmt[src], byStmt[sink]
		s := p.Stmt(src)
		if xt.Space().In.Name == "" || xs.Space().In.Name == "" || s == nil {
			continue
		}
		ws, err := writeMap(s, s.Write.Array)
		if err != nil {
			return nil, err
		}
		for _, w := range writers[s.Write.Array] {
			xw := byStmt[w.Name]
			if xw.Space().In.Name == "" {
				continue
			}
			if w.Name == src {
				// No other instance of the source writes its element.
				once, err := inj.of(src, ws)
				if err != nil {
					return nil, err
				}
				if once {
					continue
				}
			}
			ww, err := writeMap(w, s.Write.Array)
			if err != nil {
				return nil, err
			}
			bad, err := overwritten(m, xs, xt, xw, ws, ww, flows[[2]string{w.Name, sink}], w.Name == src, scope[s.Write.Array])
			if err != nil {
				return nil, fmt.Errorf("scheduler: checking writes of %s between %s and %s: %w", w.Name, src, sink, err)
			}
			v, pt, ok, err := sample(bad)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			np := bad.Space().NParam()
			nsink, nsrc := m.Space().NOut(), m.Space().NIn()
			v.Kind, v.Source, v.Sink, v.Array = deps.RAW, src, sink, s.Write.Array
			v.SinkInstance = append([]int64(nil), pt[np:np+nsink]...)
			v.SourceInstance = append([]int64(nil), pt[np+nsink:np+nsink+nsrc]...)
			v.SinkTime = append([]int64(nil), pt[np+nsink+nsrc:np+nsink+nsrc+xt.Space().NOut()]...)
			v.Overwriter = w.Name
			if v.SourceTime, err = timeOf(xs, pt[:np], v.SourceInstance); err != nil {
				return nil, err
			}
			out = append(out, v)
			break
		}
	}
	return out, nil
}

// writeMap is the union of s's writes (exact or not) of array a.
func writeMap(s *scop.Stmt, a string) (presburger.Map, error) {
	var out presburger.Map
	have := false
	for _, w := range s.Writes {
		if w.Array != a {
			continue
		}
		if !have {
			out, have = w.Rel, true
			continue
		}
		var err error
		if out, err = out.Union(w.Rel); err != nil {
			return out, err
		}
	}
	if !have {
		return out, fmt.Errorf("scheduler: %s does not write %s", s.Name, a)
	}
	return out, nil
}

// mapErrs keeps the first error of a chain of map operations.
type mapErrs struct{ err error }

func (e *mapErrs) m(m presburger.Map, err error) presburger.Map {
	if e.err == nil && err != nil {
		e.err = err
	}
	return m
}

// injectivity remembers, by statement, whether its writes of an array
// are injective: no element written by two of its instances (as every
// stage of a pipeline writes its image). overwritten then finds no other
// instance of the source writing the source's element, so the check of
// the statement against itself is skipped, flow by flow.
type injectivity map[string]bool

// of reports whether ws, statement s's writes of its array, is injective.
func (inj injectivity) of(s string, ws presburger.Map) (bool, error) {
	if once, ok := inj[s]; ok {
		return once, nil
	}
	var e mapErrs
	same := e.m(ws.ApplyRange(e.m(ws.Reverse()))) // instance -> those writing its element
	dom, err := same.Domain()
	if e.err != nil || err != nil {
		return false, errors.Join(e.err, err)
	}
	id, err := dom.Identity()
	if err != nil {
		return false, err
	}
	once, err := same.IsSubset(id)
	if err != nil {
		return false, err
	}
	inj[s] = once
	return once, nil
}
