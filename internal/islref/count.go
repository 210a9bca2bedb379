//go:build isl && cgo

package islref

/*
#include <isl/ctx.h>
#include <isl/val.h>
#include <isl/set.h>
#include <isl/union_set.h>

// tf_count sums isl_set_count_val over the sets of u; -1 on error or when a
// count does not fit a long.
static long tf_count(isl_union_set *u) {
	isl_set_list *l = isl_union_set_get_set_list(u);
	isl_size n = isl_set_list_n_set(l);
	long total = 0;
	for (int i = 0; i < n && total >= 0; i++) {
		isl_set *s = isl_set_list_get_at(l, i);
		isl_val *v = isl_set_count_val(s);
		if (!v || !isl_val_is_int(v) || isl_val_is_neg(v))
			total = -1;
		else
			total += isl_val_get_num_si(v);
		isl_val_free(v);
		isl_set_free(s);
	}
	isl_set_list_free(l);
	return n < 0 ? -1 : total;
}
*/
import "C"

// count returns the number of points of a bounded parameter-free union set.
func (c *ctx) count(x *obj) (int64, error) {
	n := C.tf_count(x.us)
	if n < 0 {
		return 0, c.err("card")
	}
	return int64(n), nil
}
