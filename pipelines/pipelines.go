package pipelines

import "github.com/tilefuse/tilefuse/scop"

// Entry is one pipeline with its default parameter values.
type Entry struct {
	Name     string
	Build    func() (*scop.Program, error)
	Defaults map[string]int64
}

// All lists the pipelines, each with a fresh map of defaults.
func All() []Entry {
	return []Entry{
		{"blur", Blur, map[string]int64{"R": BlurRows, "C": BlurCols}},
		{"producer_consumer", ProducerConsumer, map[string]int64{"R": PCRows, "C": PCCols}},
		{"histeq", HistEq, map[string]int64{"R": HistEqRows, "C": HistEqCols}},
	}
}
