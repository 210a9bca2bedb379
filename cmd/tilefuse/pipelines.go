package main

import (
	"fmt"

	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scop"
)

// pipelineNames lists the built-in DSL pipelines.
func pipelineNames() []string {
	var names []string
	for _, e := range builtinEntries() {
		names = append(names, e.Name)
	}
	return names
}

// builtinPipeline builds the pipeline called name.
func builtinPipeline(name string) (*scop.Program, error) {
	for _, e := range builtinEntries() {
		if e.Name == name {
			return e.Build()
		}
	}
	return nil, fmt.Errorf("unknown pipeline %q (see 'tilefuse scop --list')", name)
}

// builtinEntries are the seed pipelines and the Halide tutorial's
// scheduled variants of producer_consumer.
func builtinEntries() []pipelines.Entry {
	return append(pipelines.All(), pipelines.ScheduledProducerConsumer()...)
}
