// Package deps owns dependence analysis: the memory-based dependences
// (RAW, WAR, WAW) that constrain scheduling, and the exact value-based
// dataflow (which write last defined the value each read sees) from which
// come the live-in data, the live-out writes and the upwards-exposed data
// of any set of instances, the question post-tiling fusion asks per tile.
//
// All relations are between statement instances (S[i] -> T[j], source
// first) and are computed from a scop.Program's access relations and its
// original schedule, whose lexicographic order is program order.
// May-accesses (data-dependent subscripts) take part with every element
// they may touch: memory-based dependences over-approximate, and in the
// dataflow a may-write can supply a value but never kills one. Results
// hold for every parameter value, not only the program's context; gist
// them with p.Context where that matters.
//
// Memory gives the Graph of memory-based dependences, one Dep per kind,
// statement pair and array. Dataflow (or ComputeFlow, the same analysis on
// raw union maps, as isl's compute_flow) gives the Flow. Dataflow works in
// the time space: the candidate writes of a read are mapped to their
// times, the latest before the read is a lexicographic maximum taken one
// schedule level at a time, and times map back to the unique instance
// that ran then. The isl-tagged tests check all of it against isl's
// compute_flow (internal/islref) on random programs and PolyBench.
package deps
