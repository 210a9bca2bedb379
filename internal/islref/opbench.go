//go:build isl && cgo

package islref

/*
#cgo LDFLAGS: -lisl
#include <stdlib.h>
#include <time.h>
#include <isl/ctx.h>
#include <isl/set.h>

static long long tf_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// tf_time_op runs one isl operation n times on fresh copies of its operands
// and returns the elapsed nanoseconds, or -1 on error. op: 0 parse,
// 1 intersect, 2 subtract, 3 is_empty of the intersection, 4 project_out
// of the last `project` set dimensions.
static long long tf_time_op(int op, const char *a, const char *b, int project, int n) {
	isl_ctx *ctx = isl_ctx_alloc();
	isl_set *sa = isl_set_read_from_str(ctx, a);
	isl_set *sb = isl_set_read_from_str(ctx, b);
	long long bad = -1, t0 = 0, t1 = 0;
	if (!sa || !sb)
		goto out;
	t0 = tf_now();
	for (int i = 0; i < n; i++) {
		isl_set *r = NULL;
		switch (op) {
		case 0:
			r = isl_set_read_from_str(ctx, a);
			break;
		case 1:
			r = isl_set_intersect(isl_set_copy(sa), isl_set_copy(sb));
			break;
		case 2:
			r = isl_set_subtract(isl_set_copy(sa), isl_set_copy(sb));
			break;
		case 3: {
			isl_set *x = isl_set_intersect(isl_set_copy(sa), isl_set_copy(sb));
			if (isl_set_is_empty(x) < 0)
				bad = -2;
			r = x;
			break;
		}
		case 4: {
			isl_size d = isl_set_dim(sa, isl_dim_set);
			r = isl_set_project_out(isl_set_copy(sa), isl_dim_set, d - project, project);
			break;
		}
		}
		if (!r)
			goto out;
		isl_set_free(r);
	}
	t1 = tf_now();
	if (bad == -1)
		bad = t1 - t0;
out:
	isl_set_free(sa);
	isl_set_free(sb);
	isl_ctx_free(ctx);
	return bad;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// Op names an operation timed by TimeOp.
type Op int

// The operations of the side-by-side benchmark.
const (
	OpParse Op = iota
	OpIntersect
	OpSubtract
	OpIsEmpty
	OpProject
)

// TimeOp runs op n times with isl on the sets a and b (isl notation) and
// returns the time per operation. project is the number of trailing set
// dimensions OpProject removes.
func TimeOp(op Op, a, b string, project, n int) (time.Duration, error) {
	ca, cb := C.CString(a), C.CString(b)
	defer C.free(unsafe.Pointer(ca))
	defer C.free(unsafe.Pointer(cb))
	ns := C.tf_time_op(C.int(op), ca, cb, C.int(project), C.int(n))
	if ns < 0 {
		return 0, fmt.Errorf("islref: isl failed on operation %d", op)
	}
	return time.Duration(int64(ns) / int64(n)), nil
}
