//go:build isl && cgo

package islref

// The isl side of the second side-by-side benchmark (lexmin, coalesce, gist,
// dim_max) and of the dimension-bound and counting differential tests: test
// files cannot use cgo, so their isl calls live here.

/*
#cgo LDFLAGS: -lisl
#include <stdlib.h>
#include <time.h>
#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/aff.h>
#include <isl/val.h>

// tf2_dim_opt computes isl_set_dim_min (max == 0) or isl_set_dim_max of
// dimension pos of the set src within ctx's operation quota, prints it to
// *want and compares it with got within cmp_ops operations: not at all
// (mode 0), as a pw_multi_aff, comparing the two as sets of (parameters,
// value) pairs (mode 1), or with the empty function, which isl cannot read
// back ("{  }", mode 2). Returns 1 equal, 0 different, -1 isl's
// optimisation failed, -2 got is unreadable, -3 another error; the message
// is in ctx.
static int tf2_dim_opt(isl_ctx *ctx, const char *src, int pos, int max, int mode, const char *got, char **want, long cmp_ops) {
	unsigned long opt_ops = isl_ctx_get_max_operations(ctx);
	*want = NULL;
	// Reading is not limited: the reader reports running out of operations
	// as a syntax error.
	isl_ctx_set_max_operations(ctx, 0);
	isl_set *s = isl_set_read_from_str(ctx, src);
	isl_pw_multi_aff *pma = mode == 1 ? isl_pw_multi_aff_read_from_str(ctx, got) : NULL;
	isl_ctx_reset_operations(ctx);
	isl_ctx_set_max_operations(ctx, opt_ops);
	if (!s || (mode == 1 && !pma)) {
		isl_set_free(s);
		isl_pw_multi_aff_free(pma);
		return s ? -2 : -3;
	}
	isl_pw_aff *pa = max ? isl_set_dim_max(s, pos) : isl_set_dim_min(s, pos);
	if (!pa) {
		isl_pw_multi_aff_free(pma);
		return -1;
	}
	*want = isl_pw_aff_to_str(pa);
	isl_ctx_reset_operations(ctx);
	isl_ctx_set_max_operations(ctx, cmp_ops);
	if (mode == 0) {
		isl_pw_aff_free(pa);
		return 1;
	}
	if (mode == 2) {
		isl_set *a = isl_set_from_pw_aff(pa);
		isl_bool empty = isl_set_is_empty(a);
		isl_set_free(a);
		return empty < 0 ? -3 : empty;
	}
	isl_set *a = isl_set_from_pw_aff(pa);
	isl_set *b = isl_set_from_pw_multi_aff(pma);
	isl_bool eq = isl_set_is_equal(a, b);
	isl_set_free(a);
	isl_set_free(b);
	return eq < 0 ? -3 : eq;
}

// tf2_count prints isl_set_count_val of the set src (NULL on error) and
// sets *bounded to whether the set is empty or isl_set_is_bounded holds:
// isl 0.25 counts an unbounded set as 0 points, so the count means nothing
// then, and isl_set_is_bounded is false for some empty sets, e.g.
// { [x, y, z] : 3z >= -1 and x >= 1 and z <= 8 - 15x }.
static char *tf2_count(isl_ctx *ctx, const char *src, int *bounded) {
	isl_set *s = isl_set_read_from_str(ctx, src);
	if (!s)
		return NULL;
	isl_bool e = isl_set_is_empty(s);
	isl_bool b = e ? e : isl_set_is_bounded(s);
	if (b < 0) {
		isl_set_free(s);
		return NULL;
	}
	*bounded = b;
	isl_val *v = isl_set_count_val(s);
	isl_set_free(s);
	if (!v)
		return NULL;
	char *res = isl_val_to_str(v);
	isl_val_free(v);
	return res;
}

static long long tf2_now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// The operations of tf2_time and tf2_result, as Op2 in Go.
enum { TF2_LEXMIN, TF2_COALESCE, TF2_GIST, TF2_DIM_MAX };

// tf2_apply runs op on a (taken) with context b (taken, gist only) and
// returns the printed result when print is set, "" otherwise; NULL on error.
// *n receives the number of disjuncts of a set result, or of pieces of
// dim_max's.
static char *tf2_apply(int op, isl_set *a, isl_set *b, int print, int *n) {
	static char none[] = "";
	char *res = NULL;
	isl_set *r = NULL;
	*n = -1;
	switch (op) {
	case TF2_LEXMIN:
		r = isl_set_lexmin(a);
		break;
	case TF2_COALESCE:
		r = isl_set_coalesce(a);
		break;
	case TF2_GIST:
		r = isl_set_gist(a, b);
		b = NULL;
		break;
	case TF2_DIM_MAX: {
		isl_size d = isl_set_dim(a, isl_dim_set);
		isl_pw_aff *pa = isl_set_dim_max(a, d - 1);
		if (pa) {
			*n = isl_pw_aff_n_piece(pa);
			res = print ? isl_pw_aff_to_str(pa) : none;
			isl_pw_aff_free(pa);
		}
		isl_set_free(b);
		return res;
	}
	}
	isl_set_free(b);
	if (!r)
		return NULL;
	*n = isl_set_n_basic_set(r);
	res = print ? isl_set_to_str(r) : none;
	isl_set_free(r);
	return res;
}

// tf2_time reads n fresh copies of a (and of b for gist), untimed, then
// times op on each and returns the elapsed nanoseconds, or -1 on error.
// Fresh operands, not isl_set_copy: isl_set_coalesce rewrites a shared set
// in place, so later rounds would coalesce an already coalesced set.
static long long tf2_time(int op, const char *a, const char *b, int n) {
	isl_ctx *ctx = isl_ctx_alloc();
	isl_set **as = calloc(n, sizeof *as), **bs = calloc(n, sizeof *bs);
	long long res = -1;
	int ok = 1, k;
	for (int i = 0; i < n && ok; i++) {
		as[i] = isl_set_read_from_str(ctx, a);
		if (op == TF2_GIST)
			bs[i] = isl_set_read_from_str(ctx, b);
		ok = as[i] && (op != TF2_GIST || bs[i]);
	}
	if (ok) {
		long long t0 = tf2_now();
		for (int i = 0; i < n && ok; i++) {
			ok = tf2_apply(op, as[i], bs[i], 0, &k) != NULL;
			as[i] = bs[i] = NULL;
		}
		if (ok)
			res = tf2_now() - t0;
	}
	for (int i = 0; i < n; i++) {
		isl_set_free(as[i]);
		isl_set_free(bs[i]);
	}
	free(as);
	free(bs);
	isl_ctx_free(ctx);
	return res;
}

// tf2_result runs op once on a and b and returns its printed result (NULL
// on error, the message in ctx) and in *n the number of disjuncts.
static char *tf2_result(isl_ctx *ctx, int op, const char *a, const char *b, int *n) {
	isl_set *sa = isl_set_read_from_str(ctx, a);
	isl_set *sb = op == TF2_GIST ? isl_set_read_from_str(ctx, b) : NULL;
	*n = -1;
	if (!sa || (op == TF2_GIST && !sb)) {
		isl_set_free(sa);
		isl_set_free(sb);
		return NULL;
	}
	return tf2_apply(op, sa, sb, 1, n);
}

// tf2_union returns (a - b) + b as isl builds it, printed, with the number
// of its disjuncts in *n; NULL on error.
static char *tf2_union(isl_ctx *ctx, const char *a, const char *b, int *n) {
	isl_set *sa = isl_set_read_from_str(ctx, a);
	isl_set *sb = isl_set_read_from_str(ctx, b);
	isl_set *u = isl_set_union(isl_set_subtract(sa, isl_set_copy(sb)), sb);
	*n = -1;
	if (!u)
		return NULL;
	*n = isl_set_n_basic_set(u);
	char *res = isl_set_to_str(u);
	isl_set_free(u);
	return res;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unsafe"
)

// ErrUnbounded reports that isl refused an optimisation: isl 0.25's
// isl_set_dim_min/max and isl_set_lexmin fail with the error "unbounded
// optimum" (and return NULL, never NaN or infinite pieces) when some
// parameter value has no optimum.
var ErrUnbounded = errors.New("isl: unbounded optimum")

// optErr is c.err for an optimisation, recognising isl's unbounded optimum.
func (c *ctx) optErr(what string) error {
	if m := C.isl_ctx_last_error_msg(c.p); m != nil && strings.Contains(C.GoString(m), "unbounded optimum") {
		C.isl_ctx_reset_error(c.p)
		return fmt.Errorf("%s: %w", what, ErrUnbounded)
	}
	return c.err(what)
}

func goString(s *C.char) string {
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s)
}

// compareOperations bounds isl's comparison of two optima: a few random
// sets give answers with nested divisions whose equality test runs for
// seconds, which would dominate the test's time. Running out gives ErrQuota.
const compareOperations = 300_000

// emptyFunction matches a function without pieces, e.g. "[N] -> {  }".
var emptyFunction = regexp.MustCompile(`^\s*(\[[^]]*\]\s*->\s*)?\{\s*\}\s*$`)

// DimOpt computes isl_set_dim_min (max false) or isl_set_dim_max of set
// dimension pos of src and returns it as isl prints it. When got is not
// empty it is read as a piecewise quasi-affine function (as
// presburger.PwMultiAff.String prints it) and equal reports whether it is
// isl's answer: the same value wherever isl's is defined, and undefined
// elsewhere. An unbounded optimum gives an error wrapping ErrUnbounded, an
// exhausted operation quota one wrapping ErrQuota.
func DimOpt(src string, pos int, max bool, got string) (want string, equal bool, err error) {
	c := newCtx()
	defer c.free()
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	cgot := C.CString(got)
	defer C.free(unsafe.Pointer(cgot))
	mode, cmax := C.int(1), C.int(0)
	switch {
	case got == "":
		mode = 0
	case emptyFunction.MatchString(got):
		mode = 2
	}
	if max {
		cmax = 1
	}
	var cwant *C.char
	r := C.tf2_dim_opt(c.p, csrc, C.int(pos), cmax, mode, cgot, &cwant, compareOperations)
	if cwant != nil {
		want = goString(cwant)
	}
	switch r {
	case 0, 1:
		return want, r == 1, nil
	case -1:
		return "", false, c.optErr("dim_opt")
	case -2:
		return want, false, fmt.Errorf("isl cannot read tilefuse's answer: %w", c.err("read pw_multi_aff"))
	}
	return want, false, c.err("dim_opt")
}

// Count returns isl_set_count_val of the parameter-free set src as decimal
// text, and whether isl finds the set bounded (empty, or isl_set_is_bounded;
// isl 0.25 counts 0 points in an unbounded set, so then the count is
// meaningless).
func Count(src string) (n string, bounded bool, err error) {
	c := newCtx()
	defer c.free()
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	var b C.int
	r := C.tf2_count(c.p, csrc, &b)
	if r == nil {
		return "", false, c.err("count")
	}
	return goString(r), b != 0, nil
}

// Op2 names an operation timed by TimeOp2.
type Op2 int

// The operations of the second side-by-side benchmark.
const (
	OpLexMin   Op2 = C.TF2_LEXMIN   // isl_set_lexmin(A)
	OpCoalesce Op2 = C.TF2_COALESCE // isl_set_coalesce(A)
	OpGist     Op2 = C.TF2_GIST     // isl_set_gist(A, B)
	OpDimMax   Op2 = C.TF2_DIM_MAX  // isl_set_dim_max(A, last dimension)
)

// TimeOp2 runs op n times with isl on fresh copies of a and b (read before
// the clock starts) and returns the time per operation.
func TimeOp2(op Op2, a, b string, n int) (time.Duration, error) {
	ca, cb := C.CString(a), C.CString(b)
	defer C.free(unsafe.Pointer(ca))
	defer C.free(unsafe.Pointer(cb))
	ns := C.tf2_time(C.int(op), ca, cb, C.int(n))
	if ns < 0 {
		return 0, fmt.Errorf("islref: isl failed on operation %d", op)
	}
	return time.Duration(int64(ns) / int64(n)), nil
}

// Result2 runs op once with isl and returns its result as isl prints it and
// its number of disjuncts (pieces for dim_max). An unbounded optimum gives
// an error wrapping ErrUnbounded.
func Result2(op Op2, a, b string) (res string, disjuncts int, err error) {
	c := newCtx()
	defer c.free()
	ca, cb := C.CString(a), C.CString(b)
	defer C.free(unsafe.Pointer(ca))
	defer C.free(unsafe.Pointer(cb))
	var n C.int
	r := C.tf2_result(c.p, C.int(op), ca, cb, &n)
	if r == nil {
		return "", 0, c.optErr(fmt.Sprintf("operation %d", op))
	}
	return goString(r), int(n), nil
}

// SubtractUnion returns (a - b) + b as isl builds it, printed, and its
// number of disjuncts: the input of the coalesce benchmark.
func SubtractUnion(a, b string) (res string, disjuncts int, err error) {
	c := newCtx()
	defer c.free()
	ca, cb := C.CString(a), C.CString(b)
	defer C.free(unsafe.Pointer(ca))
	defer C.free(unsafe.Pointer(cb))
	var n C.int
	r := C.tf2_union(c.p, ca, cb, &n)
	if r == nil {
		return "", 0, c.err("subtract union")
	}
	return goString(r), int(n), nil
}
