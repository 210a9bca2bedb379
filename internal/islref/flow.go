//go:build isl && cgo

package islref

/*
#include <stdlib.h>
#include <isl/ctx.h>
#include <isl/union_map.h>
#include <isl/flow.h>

// tf_flow runs dataflow analysis on copies of its operands; out receives
// must_dependence, may_dependence, must_no_source and may_no_source, or
// NULLs on error.
static void tf_flow(isl_union_map *sink, isl_union_map *must, isl_union_map *may,
		isl_union_map *sched, isl_union_map **out) {
	isl_union_access_info *ai = isl_union_access_info_from_sink(isl_union_map_copy(sink));
	ai = isl_union_access_info_set_must_source(ai, isl_union_map_copy(must));
	ai = isl_union_access_info_set_may_source(ai, isl_union_map_copy(may));
	ai = isl_union_access_info_set_schedule_map(ai, isl_union_map_copy(sched));
	isl_union_flow *flow = isl_union_access_info_compute_flow(ai);
	out[0] = isl_union_flow_get_must_dependence(flow);
	out[1] = isl_union_flow_get_may_dependence(flow);
	out[2] = isl_union_flow_get_must_no_source(flow);
	out[3] = isl_union_flow_get_may_no_source(flow);
	isl_union_flow_free(flow);
}
*/
import "C"

import (
	"unsafe"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// Flow is isl's answer to a dataflow question, as isl prints it.
type Flow struct {
	// MustDep and MayDep relate source to sink instances; isl's may
	// dependences include the must dependences.
	MustDep, MayDep string
	// MustNoSource and MayNoSource are the sink accesses (instance ->
	// element) that have no source for sure, or possibly.
	MustNoSource, MayNoSource string
}

// ComputeFlow runs isl_union_access_info_compute_flow with the given sink,
// must-source and may-source access relations and schedule (a union map
// into a common time space, set with isl_union_access_info_set_schedule_map).
func ComputeFlow(sink, mustSource, maySource, schedule string) (Flow, error) {
	c := newCtx()
	defer c.free()
	var in [4]*obj
	for i, src := range []string{sink, mustSource, maySource, schedule} {
		o, err := c.read(src, calc.MapKind)
		if err != nil {
			return Flow{}, err
		}
		in[i] = o
	}
	c.resetQuota()
	out := (*[4]*C.isl_union_map)(C.malloc(C.size_t(4 * unsafe.Sizeof((*C.isl_union_map)(nil)))))
	defer C.free(unsafe.Pointer(out))
	C.tf_flow(in[0].um, in[1].um, in[2].um, in[3].um, &out[0])
	var texts [4]string
	for i, p := range out {
		o, err := c.umap(p, "compute_flow")
		if err != nil {
			// the rest may still be set; free them with the context
			for _, q := range out[i+1:] {
				if q != nil {
					C.isl_union_map_free(q)
				}
			}
			return Flow{}, err
		}
		texts[i] = o.String()
	}
	return Flow{MustDep: texts[0], MayDep: texts[1], MustNoSource: texts[2], MayNoSource: texts[3]}, nil
}
