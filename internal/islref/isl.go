//go:build isl && cgo

package islref

/*
#cgo LDFLAGS: -lisl
#include <stdlib.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/obj.h>
#include <isl/stream.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_set.h>
#include <isl/union_map.h>
#include <isl/point.h>

// tf_read reads a set or map of any flavour and returns it as a union set
// (*is_map = 0) or union map (*is_map = 1); NULL on error or for other objects.
static void *tf_read(isl_ctx *ctx, const char *str, int *is_map) {
	isl_stream *s = isl_stream_new_str(ctx, str);
	if (!s)
		return NULL;
	struct isl_obj obj = isl_stream_read_obj(s);
	void *res = NULL;
	if (obj.v && !isl_stream_is_empty(s)) {
		// trailing text after the object
		obj.type->free(obj.v);
		obj.v = NULL;
	}
	if (!obj.v) {
		// nothing read
	} else if (obj.type == isl_obj_set) {
		*is_map = 0;
		res = isl_union_set_from_set(obj.v);
	} else if (obj.type == isl_obj_union_set) {
		*is_map = 0;
		res = obj.v;
	} else if (obj.type == isl_obj_map) {
		*is_map = 1;
		res = isl_union_map_from_map(obj.v);
	} else if (obj.type == isl_obj_union_map) {
		*is_map = 1;
		res = obj.v;
	} else {
		obj.type->free(obj.v);
	}
	isl_stream_free(s);
	return res;
}

// tf_sample returns a union set holding one point of uset (parameters fixed,
// as isl_set_sample_point does), or an empty union set in its space.
// isl_union_set_sample_point and isl_union_set_sample in isl 0.25 leak
// memory when the union has an empty member with parameters, so the
// members are sampled one by one, empty ones skipped.
static isl_union_set *tf_sample(isl_union_set *uset) {
	isl_union_set *res = NULL;
	isl_set_list *list = isl_union_set_get_set_list(uset);
	isl_size n = isl_set_list_size(list);
	if (n < 0)
		goto done;
	for (int i = 0; i < n && !res; i++) {
		isl_set *set = isl_set_list_get_at(list, i);
		isl_bool empty = isl_set_is_empty(set);
		if (empty < 0) {
			isl_set_free(set);
			goto done;
		}
		if (empty)
			isl_set_free(set);
		else
			res = isl_union_set_from_point(isl_set_sample_point(set));
	}
	if (!res)
		res = isl_union_set_empty_space(isl_union_set_get_space(uset));
done:
	isl_set_list_free(list);
	isl_union_set_free(uset);
	return res;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// maxOperations bounds the work of one isl operation, so a pathological
// random case is reported as a quota error instead of hanging a test.
const maxOperations = 2_000_000

// ErrQuota reports that isl gave up on an operation after maxOperations steps.
var ErrQuota = errors.New("isl: operation quota exceeded")

// ctx is an isl_ctx with every object created in it, freed together.
type ctx struct {
	p    *C.isl_ctx
	objs []*obj
}

// obj is a union set or union map owned by a ctx; each operation copies it.
type obj struct {
	kind calc.Kind
	us   *C.isl_union_set
	um   *C.isl_union_map

	// A sample or gist has many right answers; these keep the operands
	// that Check needs to judge tilefuse's answer.
	sampleOf *obj
	gistOf   [2]*obj
}

func newCtx() *ctx {
	p := C.isl_ctx_alloc()
	C.isl_options_set_on_error(p, C.ISL_ON_ERROR_CONTINUE)
	C.isl_ctx_set_max_operations(p, maxOperations)
	return &ctx{p: p}
}

// resetQuota starts a new operation: isl counts operations towards the
// quota until the counter is reset.
func (c *ctx) resetQuota() { C.isl_ctx_reset_operations(c.p) }

// free releases all objects and the context.
func (c *ctx) free() {
	c.release(0)
	// isl refuses to free a context that objects still use; make it say so.
	C.isl_options_set_on_error(c.p, C.ISL_ON_ERROR_WARN)
	C.isl_ctx_free(c.p)
	c.p = nil
}

// release frees the objects created after the first n.
func (c *ctx) release(n int) {
	for _, o := range c.objs[n:] {
		if o.us != nil {
			C.isl_union_set_free(o.us)
		}
		if o.um != nil {
			C.isl_union_map_free(o.um)
		}
	}
	clear(c.objs[n:])
	c.objs = c.objs[:n]
}

// err turns the context's last error into a Go error and resets it.
func (c *ctx) err(what string) error {
	defer C.isl_ctx_reset_error(c.p)
	if C.isl_ctx_last_error(c.p) == C.isl_error_quota {
		C.isl_ctx_reset_operations(c.p)
		return fmt.Errorf("%s: %w", what, ErrQuota)
	}
	if m := C.isl_ctx_last_error_msg(c.p); m != nil {
		return fmt.Errorf("isl %s: %s", what, C.GoString(m))
	}
	return fmt.Errorf("isl %s failed", what)
}

func (c *ctx) uset(p *C.isl_union_set, what string) (*obj, error) {
	if p == nil {
		return nil, c.err(what)
	}
	o := &obj{kind: calc.SetKind, us: p}
	c.objs = append(c.objs, o)
	return o, nil
}

func (c *ctx) umap(p *C.isl_union_map, what string) (*obj, error) {
	if p == nil {
		return nil, c.err(what)
	}
	o := &obj{kind: calc.MapKind, um: p}
	c.objs = append(c.objs, o)
	return o, nil
}

// read parses a set or map; want == 0 accepts either, otherwise the text is
// read as that kind (so "{ }" is an empty map when a map is wanted).
func (c *ctx) read(src string, want calc.Kind) (*obj, error) {
	cs := C.CString(src)
	defer C.free(unsafe.Pointer(cs))
	switch want {
	case calc.SetKind:
		return c.uset(C.isl_union_set_read_from_str(c.p, cs), "read set")
	case calc.MapKind:
		return c.umap(C.isl_union_map_read_from_str(c.p, cs), "read map")
	}
	var isMap C.int
	r := C.tf_read(c.p, cs, &isMap)
	if r == nil {
		return nil, c.err("read")
	}
	if isMap != 0 {
		return c.umap((*C.isl_union_map)(r), "read")
	}
	return c.uset((*C.isl_union_set)(r), "read")
}

// String prints o in isl notation.
func (o *obj) String() string {
	var s *C.char
	if o.kind == calc.MapKind {
		s = C.isl_union_map_to_str(o.um)
	} else {
		s = C.isl_union_set_to_str(o.us)
	}
	if s == nil {
		return "<isl print failed>"
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

func (o *obj) copySet() *C.isl_union_set { return C.isl_union_set_copy(o.us) }
func (o *obj) copyMap() *C.isl_union_map { return C.isl_union_map_copy(o.um) }

// boolean converts an isl_bool, turning isl_bool_error into an error.
func (c *ctx) boolean(b C.isl_bool, what string) (bool, error) {
	if b < 0 {
		return false, c.err(what)
	}
	return b != 0, nil
}

// sample returns one element of x as a union set or map: isl's point fixes
// the parameters too. An empty x gives an empty value in x's space.
func (c *ctx) sample(x *obj) (*obj, error) {
	if x.kind == calc.MapKind {
		return c.umap(C.isl_union_set_unwrap(C.tf_sample(C.isl_union_map_wrap(x.copyMap()))), "sample")
	}
	return c.uset(C.tf_sample(x.copySet()), "sample")
}
