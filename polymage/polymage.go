package polymage

import (
	"fmt"
	"maps"
	"sort"

	"github.com/tilefuse/tilefuse/scop"
)

// Entry is one benchmark pipeline: how to build it and the sizes it runs
// at.
type Entry struct {
	Name string
	// Stages is the stage count PolyMage reports for the benchmark, to
	// compare with the built program's statements and functions.
	Stages int
	Build  func() (*scop.Program, error)
	// Defaults are PolyMage's benchmark sizes; Small is a size that the
	// reference executor runs in well under a second, for tests.
	Defaults, Small map[string]int64
	// Fill writes the deterministic content of the input array name into
	// b (allocated at its shape) for a seed. Nil means Synthetic for every
	// input.
	Fill func(name string, b *scop.Buffer, seed uint64)
}

// Inputs allocates and fills the live-in arrays of prog, which e.Build
// returned, at the given parameter values.
func (e Entry) Inputs(prog *scop.Program, params map[string]int64, seed uint64) (map[string]*scop.Buffer, error) {
	bufs := map[string]*scop.Buffer{}
	for _, a := range prog.Arrays {
		if !a.LiveIn {
			continue
		}
		b, err := a.Buffer(params)
		if err != nil {
			return nil, fmt.Errorf("%s: input: %v", e.Name, err)
		}
		if e.Fill != nil {
			e.Fill(a.Name, b, seed)
		} else {
			Synthetic(b, seed)
		}
		bufs[a.Name] = b
	}
	return bufs, nil
}

// registry holds the entries; each pipeline's file adds its own in an
// init function, so that files written apart never edit a shared list.
var registry []Entry

// register adds an entry. A missing name or builder or a repeated name
// is a programming error, reported at start-up.
func register(e Entry) {
	if e.Name == "" || e.Build == nil {
		panic("polymage: entry without a name or a Build function")
	}
	for _, o := range registry {
		if o.Name == e.Name {
			panic("polymage: entry " + e.Name + " registered twice")
		}
	}
	registry = append(registry, e)
}

// All lists the entries sorted by name, each with fresh maps of sizes
// (callers may change them).
func All() []Entry {
	out := make([]Entry, len(registry))
	for i, e := range registry {
		e.Defaults, e.Small = maps.Clone(e.Defaults), maps.Clone(e.Small)
		out[i] = e
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds an entry by name.
func Lookup(name string) (Entry, bool) {
	for _, e := range All() {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}
