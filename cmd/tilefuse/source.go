package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"tilefuse/frontend/cparse"
	"tilefuse/polybench"
	"tilefuse/polymage"
	"tilefuse/scop"
)

// sourceHelp describes the SOURCE argument every compiling command takes.
const sourceHelp = `
SOURCE is a C file holding static control parts (one program per function;
--func picks one), or a built-in benchmark: polybench/NAME (e.g.
polybench/gemm), polymage/NAME (a PolyMage benchmark pipeline, e.g.
polymage/harris) or pipelines/NAME (e.g. pipelines/blur). 'tilefuse scop
--list' lists the built-ins.
`

// loadPrograms resolves SOURCE to its programs, keeping only function fn
// when fn is set.
func loadPrograms(source, fn string) ([]*scop.Program, error) {
	var progs []*scop.Program
	switch {
	case strings.HasPrefix(source, "polybench/"):
		name := strings.TrimPrefix(source, "polybench/")
		k, ok := polybench.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown PolyBench kernel %q (see 'tilefuse scop --list')", name)
		}
		p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
		if err != nil {
			return nil, err
		}
		p.Name = k.Name
		progs = []*scop.Program{p}
	case strings.HasPrefix(source, "polymage/"):
		name := strings.TrimPrefix(source, "polymage/")
		e, ok := polymage.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown PolyMage pipeline %q (see 'tilefuse scop --list')", name)
		}
		p, err := e.Build()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", source, err)
		}
		progs = []*scop.Program{p}
	case strings.HasPrefix(source, "pipelines/"):
		name := strings.TrimPrefix(source, "pipelines/")
		p, err := builtinPipeline(name)
		if err != nil {
			return nil, err
		}
		progs = []*scop.Program{p}
	default:
		src, err := os.ReadFile(source)
		if err != nil {
			return nil, err
		}
		if progs, err = cparse.Parse(source, src); err != nil {
			return nil, err
		}
	}
	if fn == "" {
		return progs, nil
	}
	for _, p := range progs {
		if p.Name == fn {
			return []*scop.Program{p}, nil
		}
	}
	return nil, fmt.Errorf("%s has no function %q", source, fn)
}

// builtinNames lists every built-in SOURCE.
func builtinNames() []string {
	var names []string
	for _, k := range polybench.Kernels() {
		names = append(names, "polybench/"+k.Name)
	}
	for _, e := range polymage.All() {
		names = append(names, "polymage/"+e.Name)
	}
	for _, n := range pipelineNames() {
		names = append(names, "pipelines/"+n)
	}
	sort.Strings(names)
	return names
}

// polymageSeed seeds the inputs of PolyMage pipelines (run and bench use
// the same pictures).
const polymageSeed = 1

// sourceInputs returns the input contents a built-in benchmark brings
// (a PolyMage pipeline's pictures, whose values some stages index by),
// or nil when the generated ones serve.
func sourceInputs(source string, p *scop.Program, params map[string]int64) (map[string]*scop.Buffer, error) {
	name, ok := strings.CutPrefix(source, "polymage/")
	if !ok {
		return nil, nil
	}
	e, ok := polymage.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown PolyMage pipeline %q", name)
	}
	return e.Inputs(p, params, polymageSeed)
}
