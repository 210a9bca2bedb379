package scheduletree

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// This file converts band schedules between union maps and isl's
// multi-union-pw-aff notation, "[N] -> [{ S[i, j] -> [(i)]; T[i] -> [(N -
// i)] : i >= 0 }, { S[i, j] -> [(floor((j)/4))] }]": one union of piecewise
// quasi-affine expressions per member, each piece with its condition.

// writeMUPA formats the band schedule sched with n members.
func writeMUPA(sched presburger.UnionMap, n int) string {
	maps := sched.Maps()
	var params []string
	if len(maps) > 0 {
		params = maps[0].Space().Params
	}
	members := make([]string, n)
	for k := range n {
		var bodies []string
		for _, m := range maps {
			mk := must(m.ProjectOut(presburger.DimOut, k+1, n-k-1))
			mk = must(mk.ProjectOut(presburger.DimOut, 0, k))
			if b := pwBody(mk, ""); b != "" {
				bodies = append(bodies, b)
			}
		}
		members[k] = "{ " + strings.Join(bodies, "; ") + " }"
	}
	return paramPrefix(params) + "[" + strings.Join(members, ", ") + "]"
}

func paramPrefix(params []string) string {
	if len(params) == 0 {
		return ""
	}
	return "[" + strings.Join(params, ", ") + "] -> "
}

// pwBody writes the single-valued map m as pieces "S[i] -> name[(e)] :
// cond" separated by "; ", with disjoint conditions (isl adds up the values
// of overlapping pieces). It checks that the text reads back as m, so a
// map that is not a function is an error rather than a silent change.
func pwBody(m presburger.Map, name string) string {
	pw := must(m.LexMinPw())
	s := pw.String()
	body := strings.TrimSuffix(s[strings.Index(s, "{ ")+2:], " }")
	if body == "" {
		return ""
	}
	if name != "" {
		pieces := strings.Split(body, "; ")
		for i, p := range pieces {
			if j := strings.Index(p, " -> ["); j >= 0 {
				pieces[i] = p[:j] + " -> " + name + p[j+4:]
			}
		}
		body = strings.Join(pieces, "; ")
	}
	back := must(presburger.ParseUnionMap(paramPrefix(m.Space().Params) + "{ " + body + " }"))
	if !must(back.IsEqual(unionMap([]presburger.Map{m}))) {
		panic(opError{fmt.Errorf("scheduletree: %s is not a function (written as %s)", m, body)})
	}
	return body
}

// writeUPMA formats a union of functions, such as the contraction of an
// expansion node, in isl's union-pw-multi-aff notation.
func writeUPMA(u presburger.UnionMap) string {
	maps := u.Maps()
	var params []string
	var bodies []string
	for _, m := range maps {
		params = m.Space().Params
		if b := pwBody(m, m.Space().Out.Name); b != "" {
			bodies = append(bodies, b)
		}
	}
	return paramPrefix(params) + "{ " + strings.Join(bodies, "; ") + " }"
}

// readMUPA reads a band schedule written in multi-union-pw-aff notation
// and returns it as a union map with the number of members. Each member is
// read as a union map (its pieces are single-valued expressions, which the
// presburger parser reads as maps) and the members are combined per
// statement; a statement missing from a member has no schedule, as in isl.
func readMUPA(text string) (presburger.UnionMap, int, error) {
	s := strings.TrimSpace(text)
	params := ""
	if strings.HasPrefix(s, "[") && !strings.HasPrefix(strings.TrimSpace(s[1:]), "{") && !strings.HasPrefix(strings.TrimSpace(s[1:]), "]") {
		end := strings.Index(s, "]")
		rest := strings.TrimSpace(s[end+1:])
		if end < 0 || !strings.HasPrefix(rest, "->") {
			return presburger.UnionMap{}, 0, fmt.Errorf("bad multi-union-pw-aff %q", text)
		}
		params = s[:end+1] + " -> "
		s = strings.TrimSpace(rest[2:])
	}
	// An optional name of the band's space.
	if i := strings.Index(s, "["); i > 0 {
		s = s[i:]
	}
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return presburger.UnionMap{}, 0, fmt.Errorf("bad multi-union-pw-aff %q (an explicit domain is not supported)", text)
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	var members []presburger.UnionMap
	for s != "" {
		if !strings.HasPrefix(s, "{") {
			return presburger.UnionMap{}, 0, fmt.Errorf("bad multi-union-pw-aff %q: expected '{' at %q", text, s)
		}
		end := strings.Index(s, "}")
		if end < 0 {
			return presburger.UnionMap{}, 0, fmt.Errorf("bad multi-union-pw-aff %q: missing '}'", text)
		}
		m, err := presburger.ParseUnionMap(params + s[:end+1])
		if err != nil {
			return presburger.UnionMap{}, 0, fmt.Errorf("member %d of %q: %w", len(members), text, err)
		}
		for _, x := range m.Maps() {
			if x.Space().NOut() != 1 || x.Space().Out.Name != "" {
				return presburger.UnionMap{}, 0, fmt.Errorf("member %d of %q is not a one-dimensional expression", len(members), text)
			}
		}
		members = append(members, m)
		s = strings.TrimSpace(s[end+1:])
		if strings.HasPrefix(s, ",") {
			s = strings.TrimSpace(s[1:])
		} else if s != "" {
			return presburger.UnionMap{}, 0, fmt.Errorf("bad multi-union-pw-aff %q: expected ',' at %q", text, s)
		}
	}
	if len(members) == 0 {
		return presburger.UnionMap{}, 0, fmt.Errorf("a band schedule needs at least one member: %q", text)
	}
	var res presburger.UnionMap
	err := func() (err error) {
		defer catch(&err)
		res = members[0]
		for _, m := range members[1:] {
			res = flatRangeProduct(res, m)
		}
		return nil
	}()
	return res, len(members), err
}
