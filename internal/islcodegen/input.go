package islcodegen

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// Input is one test input: the tree to generate code for, the context
// assumed beside it (an .in input's), and the schedule map
// of the tree's instances to their times (for telling ties apart).
type Input struct {
	Tree scheduletree.Tree
	// Context is valid when HasContext is set.
	Context    presburger.Set
	HasContext bool
	Schedule   presburger.UnionMap
}

// Refusal is an input that tilefuse cannot take as given, with the reason.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) error { return &Refusal{fmt.Sprintf(format, args...)} }

// Read reads an input: a schedule tree (.st) or a schedule map with its
// context and options (.in), as isl_codegen reads them.
func Read(path string) (Input, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Input{}, err
	}
	switch filepath.Ext(path) {
	case ".st":
		t, err := scheduletree.UnmarshalYAML(data)
		if err != nil {
			return Input{}, err
		}
		sched, err := treeSchedule(t)
		return Input{Tree: t, Schedule: sched}, err
	case ".in":
		return ReadMapInput(string(data))
	}
	return Input{}, fmt.Errorf("%s: not a .st or .in input", path)
}

// treeSchedule is the times of the tree's instances.
func treeSchedule(t scheduletree.Tree) (presburger.UnionMap, error) {
	m, err := t.ExecutedMap()
	if err != nil {
		return m, err
	}
	return m.IntersectDomain(t.Root().Domain())
}

// ReadMapInput reads the three objects of an .in input: the schedule (a
// union map from statement instances to times), the context (a parameter
// set) and the options (a union map from times to isl's options
// separate[x], atomic[x], unroll[x] for dimension x).
func ReadMapInput(src string) (Input, error) {
	var objs []any
	rest := src
	for range 3 {
		obj, n, err := presburger.ParsePrefix(rest)
		if err != nil {
			return Input{}, fmt.Errorf("object %d: %w", len(objs)+1, err)
		}
		objs = append(objs, obj)
		rest = rest[n:]
	}
	if strings.TrimSpace(stripComments(rest)) != "" {
		return Input{}, errors.New("text after the options")
	}
	sched, ok := asUnionMap(objs[0])
	if !ok {
		return Input{}, errors.New("the schedule is not a map")
	}
	ctx, ok := objs[1].(presburger.Set)
	if !ok || !ctx.Space().IsParams {
		return Input{}, errors.New("the context is not a parameter set")
	}
	opts, ok := asUnionMap(objs[2])
	if !ok {
		return Input{}, errors.New("the options are not a map")
	}
	t, err := treeFromMap(sched, opts)
	return Input{Tree: t, Context: ctx, HasContext: true, Schedule: sched}, err
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
	}
	return b.String()
}

// asUnionMap takes a parsed object as a union map: an empty "{ }" parses
// as an empty union set.
func asUnionMap(obj any) (presburger.UnionMap, bool) {
	switch o := obj.(type) {
	case presburger.UnionMap:
		return o, true
	case presburger.UnionSet:
		if len(o.Sets()) == 0 {
			return presburger.UnionMap{}, true
		}
	}
	return presburger.UnionMap{}, false
}
