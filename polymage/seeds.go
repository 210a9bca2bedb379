package polymage

import "github.com/tilefuse/tilefuse/pipelines"

// The seed pipelines (package pipelines) run in the benchmark suite too:
// the Halide tutorial's two-stage blur, its producer/consumer, and
// histogram equalisation. Stages is their own function count.
func init() {
	stages := map[string]int{"blur": 2, "producer_consumer": 2, "histeq": 3}
	for _, e := range pipelines.All() {
		register(Entry{
			Name:     e.Name,
			Stages:   stages[e.Name],
			Build:    e.Build,
			Defaults: e.Defaults,
			Small:    map[string]int64{"R": 24, "C": 20},
		})
	}
}
