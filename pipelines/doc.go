// Package pipelines holds image pipelines written with package
// frontend/dsl: ports of the Halide tutorial's and PolyMage's examples
// that the rest of tilefuse is tested and measured on.
//
// Each pipeline is a function returning the built program; All lists
// them with the parameter values they are meant to run at. Arrays follow
// the DSL's storage rule: a function over [lo, hi) stores coordinate v at
// index v - lo, row-major, the first variable outermost.
package pipelines
