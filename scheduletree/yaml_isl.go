package scheduletree

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// This file holds the parts of isl's tree language beyond plain sets and
// maps: the AST-build options of a band and isl's tuple shorthands.

// islSugar rewrites the tuple shorthands of isl's parser that package
// presburger does not read: a dimension "*" (unconstrained, isl's
// "{ separate[*] }") and a range "lo:hi" or "x = lo:hi" (a dimension
// between lo and hi, isl's "{ unroll[s = 0:23] }"). The dimension gets a
// fresh name where it has none and the range becomes constraints of its
// disjunct. Text without them is returned unchanged.
func islSugar(s string) string {
	if !strings.ContainsAny(s, "*:") {
		return s
	}
	var out strings.Builder
	changed := false
	fresh := 0
	name := func() string {
		for {
			n := fmt.Sprintf("r%d", fresh)
			fresh++
			if !strings.Contains(s, n) {
				return n
			}
		}
	}
	i := 0
	for i < len(s) {
		open := strings.IndexByte(s[i:], '{')
		if open < 0 {
			out.WriteString(s[i:])
			break
		}
		open += i
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			out.WriteString(s[i:])
			break
		}
		end += open
		out.WriteString(s[i : open+1])
		var parts []string
		for _, d := range splitTop(s[open+1:end], ';') {
			nd, ok := sugarDisjunct(d, name)
			changed = changed || ok
			parts = append(parts, nd)
		}
		out.WriteString(strings.Join(parts, ";"))
		out.WriteByte('}')
		i = end + 1
	}
	if !changed {
		return s
	}
	return out.String()
}

// splitTop splits s at sep outside brackets and parentheses.
func splitTop(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// sugarDisjunct rewrites one disjunct "tuples : condition" of a set or
// map body.
func sugarDisjunct(d string, name func() string) (string, bool) {
	cut := len(d)
	depth := 0
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ':':
			if depth == 0 && cut == len(d) {
				cut = i
			}
		}
	}
	var extra []string
	tuples, changed := sugarTuples(d[:cut], name, &extra)
	if !changed {
		return d, false
	}
	if cut < len(d) {
		extra = append(extra, "("+d[cut+1:]+")")
	}
	if len(extra) == 0 {
		return tuples, true
	}
	return tuples + " : " + strings.Join(extra, " and ") + " ", true
}

// sugarTuples rewrites the elements of the flat tuples in t.
func sugarTuples(t string, name func() string, extra *[]string) (string, bool) {
	var out strings.Builder
	changed := false
	for i := 0; i < len(t); {
		if t[i] != '[' {
			out.WriteByte(t[i])
			i++
			continue
		}
		depth, j := 0, i
		for ; j < len(t); j++ {
			if t[j] == '[' {
				depth++
			} else if t[j] == ']' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if j == len(t) {
			out.WriteString(t[i:])
			break
		}
		inner := t[i+1 : j]
		if strings.Contains(inner, "[") {
			r, ok := sugarTuples(inner, name, extra)
			changed = changed || ok
			out.WriteString("[" + r + "]")
		} else {
			elems := splitTop(inner, ',')
			for k, e := range elems {
				x := strings.TrimSpace(e)
				switch colon := strings.IndexByte(x, ':'); {
				case x == "*":
					elems[k] = name()
					changed = true
				case colon >= 0:
					lo, hi, v := x[:colon], x[colon+1:], ""
					if eq := strings.IndexByte(lo, '='); eq >= 0 {
						v, lo = strings.TrimSpace(lo[:eq]), lo[eq+1:]
					} else {
						v = name()
					}
					elems[k] = v
					*extra = append(*extra, fmt.Sprintf("(%s) <= %s <= (%s)", strings.TrimSpace(lo), v, strings.TrimSpace(hi)))
					changed = true
				}
			}
			out.WriteString("[" + strings.Join(elems, ", ") + "]")
		}
		i = j + 1
	}
	return out.String(), changed
}

// loopTypes are isl's loop types in the order isl looks them up
// (isl_ast_loop_atomic .. isl_ast_loop_separate).
var loopTypes = []Option{OptionAtomic, OptionUnroll, OptionSeparate}

// readOptions reads isl's band options into b, as isl's
// isl_schedule_band_set_ast_build_options does:
//
//   - "atomic[x]", "unroll[x]", "separate[x]" give member k that option
//     when the set, x fixed to k, is not empty (for some parameter
//     values): "{ separate[x] }" is every member, "{ unroll[1] }" member
//     1 only, "{ unroll[x] : x >= 1 }" all but the first; members out of
//     range are ignored, two options for one member are an error;
//   - "[isolate[] -> unroll[x]]" (and the other types) likewise gives the
//     options inside the isolated part;
//   - "isolate[[outer] -> [members]]" with as many outer dimensions as
//     the band's depth is the isolate set (Band.Isolate); isolate sets of
//     other spaces are ignored, as isl's AST generator never looks them up;
//   - anything else ("default[0]", options of other names or arities)
//     is ignored, as isl's AST generator ignores it.
func readOptions(text string, b *Band, depth int) (err error) {
	defer catch(&err)
	s := must(presburger.ParseUnionSet(islSugar(text)))
	n := len(b.Options)
	var isoOpts []Option
	for _, x := range s.Sets() {
		sp := x.Space()
		out := sp.Out
		switch {
		case out.Nest == nil && out.Len() == 1:
			if err := setLoopType(x, out.Name, b.Options); err != nil {
				return err
			}
		case out.Nest != nil && out.Name == "" && out.Nest[0].Name == "isolate" && out.Nest[0].Len() == 0 &&
			out.Nest[1].Nest == nil && out.Nest[1].Len() == 1:
			if isoOpts == nil {
				isoOpts = make([]Option, n)
			}
			r := must(must(x.Unwrap()).Range())
			if err := setLoopType(r, out.Nest[1].Name, isoOpts); err != nil {
				return err
			}
		case out.Nest != nil && out.Name == "isolate" && out.Nest[1].Nest == nil && out.Nest[0].Nest == nil:
			if out.Nest[1].Len() != n || out.Nest[0].Len() != depth || out.Nest[0].Name != "" || out.Nest[1].Name != "" {
				continue // isl never finds it: not of the band's space
			}
			c := must(x.Coalesce())
			b.Isolate = &c
		}
	}
	for _, o := range isoOpts {
		if o != OptionDefault {
			b.IsolateOptions = isoOpts
			break
		}
	}
	return nil
}

// setLoopType gives the members in the one-dimensional set x the loop
// type named name, if it is one.
func setLoopType(x presburger.Set, name string, opts []Option) error {
	o, ok := optionByName(name)
	if !ok || o == OptionDefault {
		return nil
	}
	for k := range opts {
		if must(must(x.FixDim(0, int64(k))).IsEmpty()) {
			continue
		}
		if opts[k] != OptionDefault && opts[k] != o {
			return errors.New("conflicting loop type options")
		}
		opts[k] = o
	}
	return nil
}

// writeOptions gives isl's options set of b, or "" when it has none:
// the member options in member order, then the isolated part's, then
// the isolate set.
func writeOptions(b Band) string {
	var parts []string
	for k, o := range b.Options {
		if o != OptionDefault {
			parts = append(parts, fmt.Sprintf("%s[%d]", o, k))
		}
	}
	for k, o := range b.IsolateOptions {
		if o != OptionDefault && k < len(b.Options) {
			parts = append(parts, fmt.Sprintf("[isolate[] -> %s[%d]]", o, k))
		}
	}
	prefix := ""
	if b.Isolate != nil {
		text := b.Isolate.String()
		open, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
		if open < 0 || end < open {
			panic(opError{fmt.Errorf("scheduletree: isolate option %s", text)})
		}
		prefix = text[:open]
		parts = append(parts, strings.TrimSpace(text[open+1:end]))
	}
	if len(parts) == 0 {
		return ""
	}
	return prefix + "{ " + strings.Join(parts, "; ") + " }"
}
