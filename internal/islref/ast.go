//go:build isl && cgo

package islref

/*
#cgo LDFLAGS: -lisl
#include <stdlib.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/space.h>
#include <isl/set.h>
#include <isl/union_set.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/printer.h>
#include <isl/version.h>

// tf_lift puts the set of a context or guard node that is a parameter set
// into the space of the node's prefix schedule: isl's reader accepts a
// parameter set there, but its AST generator takes the set as constraints
// on the outer schedule dimensions and fails on a parameter set ("spaces
// don't match").
static isl_schedule_node *tf_lift(isl_schedule_node *node, void *user) {
	enum isl_schedule_node_type type = isl_schedule_node_get_type(node);
	isl_set *set;
	if (type == isl_schedule_node_context)
		set = isl_schedule_node_context_get_context(node);
	else if (type == isl_schedule_node_guard)
		set = isl_schedule_node_guard_get_guard(node);
	else
		return node;
	isl_bool params = isl_set_is_params(set);
	isl_size depth = isl_schedule_node_get_schedule_depth(node);
	if (params <= 0 || depth < 0) {
		isl_set_free(set);
		return params < 0 || depth < 0 ? isl_schedule_node_free(node) : node;
	}
	set = isl_set_add_dims(isl_set_from_params(set), isl_dim_set, depth);
	node = isl_schedule_node_delete(node);
	if (type == isl_schedule_node_context)
		return isl_schedule_node_insert_context(node, set);
	return isl_schedule_node_insert_guard(node, set);
}

// tf_count counts for, if and user nodes into stats[0..2].
static isl_bool tf_count(isl_ast_node *node, void *user) {
	int *stats = user;
	switch (isl_ast_node_get_type(node)) {
	case isl_ast_node_for: stats[0]++; break;
	case isl_ast_node_if: stats[1]++; break;
	case isl_ast_node_user: stats[2]++; break;
	default: break;
	}
	return isl_bool_true;
}

// tf_ast builds the AST of s (which it frees) under the universe of its
// parameters and prints it as C, without macro definitions; NULL on error.
static char *tf_ast(isl_schedule *s, int *stats) {
	s = isl_schedule_map_schedule_node_bottom_up(s, &tf_lift, NULL);
	isl_union_set *dom = isl_schedule_get_domain(s);
	if (!dom) {
		isl_schedule_free(s);
		return NULL;
	}
	isl_set *ctx = isl_set_universe(isl_space_params(isl_union_set_get_space(dom)));
	isl_union_set_free(dom);
	isl_ast_build *build = isl_ast_build_from_context(ctx);
	isl_ast_node *tree = isl_ast_build_node_from_schedule(build, s);
	isl_ast_build_free(build);
	if (!tree)
		return NULL;
	char *str = NULL;
	if (isl_ast_node_foreach_descendant_top_down(tree, &tf_count, stats) >= 0) {
		isl_ctx *c = isl_ast_node_get_ctx(tree);
		isl_printer *p = isl_printer_to_str(c);
		p = isl_printer_set_output_format(p, ISL_FORMAT_C);
		p = isl_ast_node_print(tree, p, isl_ast_print_options_alloc(c));
		str = isl_printer_get_str(p);
		isl_printer_free(p);
	}
	isl_ast_node_free(tree);
	return str;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ASTStats counts the nodes of an isl AST: for loops, if statements
// (an if with an else counts once) and statement calls.
type ASTStats struct{ Loops, Ifs, Stmts int }

// ASTFromYAML reads a schedule tree in isl's YAML form
// (isl_schedule_read_from_str), lets isl generate its AST
// (isl_ast_build_node_from_schedule, with the universe of the domain's
// parameters as context) and prints it as C (isl_ast_node_print).
// Statements print as calls with their iteration vector, "S(c0, c2 + 1);";
// the helpers isl uses are min, max and floord, whose definitions
// (isl_ast_node_print_macros) are left out. Loop iterators are declared
// "int". Context and guard nodes holding parameter sets are first turned
// into sets of the prefix schedule space, the form isl's AST generator
// takes.
func ASTFromYAML(yaml string) (string, error) {
	code, _, err := ASTFromYAMLStats(yaml)
	return code, err
}

// ASTFromYAMLStats is ASTFromYAML that also counts the AST's nodes.
func ASTFromYAMLStats(yaml string) (code string, st ASTStats, err error) {
	p := C.isl_ctx_alloc()
	C.isl_options_set_on_error(p, C.ISL_ON_ERROR_CONTINUE)
	defer C.isl_ctx_free(p)
	cs := C.CString(yaml)
	defer C.free(unsafe.Pointer(cs))
	s := C.isl_schedule_read_from_str(p, cs)
	if s == nil {
		return "", st, astErr(p, "read schedule")
	}
	stats := (*C.int)(C.calloc(3, C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(stats))
	str := C.tf_ast(s, stats)
	if str == nil {
		return "", st, astErr(p, "AST generation")
	}
	defer C.free(unsafe.Pointer(str))
	n := unsafe.Slice(stats, 3)
	return C.GoString(str), ASTStats{Loops: int(n[0]), Ifs: int(n[1]), Stmts: int(n[2])}, nil
}

func astErr(p *C.isl_ctx, what string) error {
	if m := C.isl_ctx_last_error_msg(p); m != nil {
		return fmt.Errorf("isl %s: %s", what, C.GoString(m))
	}
	return fmt.Errorf("isl %s failed", what)
}

// Version is isl's version string (isl_version), such as "isl-0.25-GMP":
// part of the key of anything recorded from isl's output.
func Version() string { return C.GoString(C.isl_version()) }
