//go:build isl && cgo

package islref

/*
#cgo LDFLAGS: -lisl
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/val.h>
#include <isl/aff.h>
#include <isl/map.h>
#include <isl/union_set.h>
#include <isl/union_map.h>
#include <isl/printer.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>

// tf_node_at returns the node of s at the given child positions.
static isl_schedule_node *tf_node_at(isl_schedule *s, const int *path, int n) {
	isl_schedule_node *node = isl_schedule_get_root(s);
	for (int i = 0; i < n && node; i++)
		node = isl_schedule_node_child(node, path[i]);
	return node;
}

// tf_yaml prints a schedule in block YAML, or as isl_schedule_to_str does.
static char *tf_yaml(isl_schedule *s, int flow) {
	if (flow)
		return isl_schedule_to_str(s);
	isl_printer *p = isl_printer_to_str(isl_schedule_get_ctx(s));
	p = isl_printer_set_yaml_style(p, ISL_YAML_STYLE_BLOCK);
	p = isl_printer_print_schedule(p, s);
	char *str = isl_printer_get_str(p);
	isl_printer_free(p);
	return str;
}

// tf_apply_text applies the map written in text to the range of umap.
static isl_union_map *tf_apply_text(isl_union_map *umap, const char *text) {
	isl_union_map *m = isl_union_map_read_from_str(isl_union_map_get_ctx(umap), text);
	return isl_union_map_apply_range(umap, m);
}

#define TF_MAX_DIMS 64

// tf_layout writes "{ [p0, ...] -> [full] }": the map from the outer band
// members to the full schedule prefix, with constants (sequence positions)
// where member[k] < 0.
static void tf_layout(char *buf, size_t size, const int *member, const int *value, int n) {
	size_t len = 0;
	len += snprintf(buf + len, size - len, "{ [");
	int first = 1;
	for (int k = 0; k < n; k++)
		if (member[k] >= 0) {
			len += snprintf(buf + len, size - len, "%sp%d", first ? "" : ", ", member[k]);
			first = 0;
		}
	len += snprintf(buf + len, size - len, "] -> [");
	for (int k = 0; k < n; k++) {
		if (member[k] >= 0)
			len += snprintf(buf + len, size - len, "%sp%d", k ? ", " : "", member[k]);
		else
			len += snprintf(buf + len, size - len, "%s%d", k ? ", " : "", value[k]);
	}
	snprintf(buf + len, size - len, "] }");
}

// tf_identity_append writes "{ [q0, ..., q(n-1)] -> [q0, ..., v, ...] }"
// with append copies of v at the end.
static void tf_identity_append(char *buf, size_t size, int n, int append, int v) {
	size_t len = snprintf(buf, size, "{ [");
	for (int k = 0; k < n; k++)
		len += snprintf(buf + len, size - len, "%sq%d", k ? ", " : "", k);
	len += snprintf(buf + len, size - len, "] -> [");
	for (int k = 0; k < n; k++)
		len += snprintf(buf + len, size - len, "%sq%d", k ? ", " : "", k);
	for (int k = 0; k < append; k++)
		len += snprintf(buf + len, size - len, "%s%d", n + k ? ", " : "", v);
	snprintf(buf + len, size - len, "] }");
}

static isl_stat tf_first_dim(isl_map *map, void *user) {
	*(int *) user = isl_map_dim(map, isl_dim_out);
	isl_map_free(map);
	return isl_stat_error; // stop after the first
}

static int tf_range_dim(isl_union_map *umap) {
	int dim = 0;
	isl_union_map_foreach_map(umap, &tf_first_dim, &dim);
	return dim;
}

// tf_extend computes the subtree schedule of node like isl's
// subtree_schedule_extend, except that an extension node adds its range,
// scheduled at the outer band members (its domain) with the branch's
// sequence positions in between: the semantics scheduletree.Tree.Map gives
// extension nodes, which isl_schedule_get_map refuses.
static isl_union_map *tf_extend(isl_schedule_node *node, isl_union_map *outer,
		int *member, int *value, int n, int members) {
	char buf[4096];
	if (!node || !outer || n >= TF_MAX_DIMS) {
		isl_schedule_node_free(node);
		return isl_union_map_free(outer);
	}
	enum isl_schedule_node_type type = isl_schedule_node_get_type(node);
	if (type == isl_schedule_node_leaf) {
		isl_schedule_node_free(node);
		return outer;
	}
	if (type == isl_schedule_node_sequence || type == isl_schedule_node_set) {
		isl_size nc = isl_schedule_node_n_children(node);
		int separate = nc > 1 && (type == isl_schedule_node_sequence ||
			isl_options_get_schedule_separate_components(isl_schedule_node_get_ctx(node)));
		isl_union_map *res = isl_union_map_empty(isl_union_map_get_space(outer));
		int width = 0;
		for (int i = 0; i < nc; i++) {
			isl_schedule_node *child = isl_schedule_node_get_child(node, i);
			isl_union_set *filter = isl_schedule_node_filter_get_filter(child);
			isl_union_map *umap = isl_union_map_intersect_domain(isl_union_map_copy(outer), filter);
			int cn = n;
			if (separate) {
				tf_identity_append(buf, sizeof buf, n, 1, i);
				umap = tf_apply_text(umap, buf);
				member[n] = -1;
				value[n] = i;
				cn = n + 1;
			}
			umap = tf_extend(isl_schedule_node_child(child, 0), umap, member, value, cn, members);
			isl_bool empty = isl_union_map_is_empty(umap);
			if (empty < 0) {
				res = isl_union_map_free(res);
				isl_union_map_free(umap);
				continue;
			}
			if (empty) {
				isl_union_map_free(umap);
				continue;
			}
			int w = tf_range_dim(umap);
			if (w > width) {
				tf_identity_append(buf, sizeof buf, width, w - width, 0);
				res = tf_apply_text(res, buf);
				width = w;
			} else if (w < width) {
				tf_identity_append(buf, sizeof buf, w, width - w, 0);
				umap = tf_apply_text(umap, buf);
			}
			res = isl_union_map_union(res, umap);
		}
		isl_schedule_node_free(node);
		isl_union_map_free(outer);
		return res;
	}
	switch (type) {
	case isl_schedule_node_band: {
		isl_size nm = isl_schedule_node_band_n_member(node);
		outer = isl_union_map_flat_range_product(outer,
			isl_schedule_node_band_get_partial_schedule_union_map(node));
		for (int k = 0; k < nm && n < TF_MAX_DIMS; k++) {
			member[n] = members + k;
			value[n++] = 0;
		}
		members += nm;
		break;
	}
	case isl_schedule_node_domain:
		outer = isl_union_map_intersect_domain(outer, isl_schedule_node_domain_get_domain(node));
		break;
	case isl_schedule_node_filter:
		outer = isl_union_map_intersect_domain(outer, isl_schedule_node_filter_get_filter(node));
		break;
	case isl_schedule_node_expansion:
		outer = isl_union_map_apply_domain(outer, isl_schedule_node_expansion_get_expansion(node));
		break;
	case isl_schedule_node_extension: {
		isl_union_map *ext = isl_schedule_node_extension_get_extension(node);
		tf_layout(buf, sizeof buf, member, value, n);
		ext = tf_apply_text(isl_union_map_reverse(ext), buf);
		outer = isl_union_map_union(outer, ext);
		break;
	}
	default:
		break;
	}
	return tf_extend(isl_schedule_node_child(node, 0), outer, member, value, n, members);
}

// tf_extended_map is isl_schedule_get_map with tf_extend's semantics for
// extension nodes; it starts from the universe of the root domain.
static isl_union_map *tf_extended_map(isl_schedule *s) {
	int member[TF_MAX_DIMS], value[TF_MAX_DIMS];
	isl_union_set *dom = isl_union_set_universe(isl_schedule_get_domain(s));
	isl_union_map *outer = isl_union_map_from_domain(dom);
	isl_schedule_node *root = isl_schedule_get_root(s);
	return tf_extend(isl_schedule_node_child(root, 0), outer, member, value, 0, 0);
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// scheduleCall reads a schedule tree in isl's YAML form in a fresh context
// and runs f on it; every isl object f creates must be freed by f.
func schedCall(yaml string, f func(p *C.isl_ctx, s *C.isl_schedule) (string, error)) (string, error) {
	p := C.isl_ctx_alloc()
	C.isl_options_set_on_error(p, C.ISL_ON_ERROR_CONTINUE)
	defer C.isl_ctx_free(p)
	cs := C.CString(yaml)
	defer C.free(unsafe.Pointer(cs))
	s := C.isl_schedule_read_from_str(p, cs)
	if s == nil {
		return "", schedErr(p, "read schedule")
	}
	defer C.isl_schedule_free(s)
	return f(p, s)
}

func schedErr(p *C.isl_ctx, what string) error {
	if m := C.isl_ctx_last_error_msg(p); m != nil {
		return fmt.Errorf("isl %s: %s", what, C.GoString(m))
	}
	return fmt.Errorf("isl %s failed", what)
}

// goString takes ownership of an isl-allocated string.
func schedStr(p *C.isl_ctx, s *C.char, what string) (string, error) {
	if s == nil {
		return "", schedErr(p, what)
	}
	defer C.free(unsafe.Pointer(s))
	return C.GoString(s), nil
}

func schedUmapStr(p *C.isl_ctx, m *C.isl_union_map, what string) (string, error) {
	if m == nil {
		return "", schedErr(p, what)
	}
	defer C.isl_union_map_free(m)
	return schedStr(p, C.isl_union_map_to_str(m), what)
}

func schedPath(path []int) (*C.int, C.int) {
	if len(path) == 0 {
		return nil, 0
	}
	cp := (*C.int)(C.malloc(C.size_t(len(path)) * C.size_t(unsafe.Sizeof(C.int(0)))))
	for i, x := range path {
		unsafe.Slice(cp, len(path))[i] = C.int(x)
	}
	return cp, C.int(len(path))
}

// nodeAt returns a copy of the node at path; the caller frees it.
func schedNodeAt(p *C.isl_ctx, s *C.isl_schedule, path []int) (*C.isl_schedule_node, error) {
	cp, n := schedPath(path)
	if cp != nil {
		defer C.free(unsafe.Pointer(cp))
	}
	node := C.tf_node_at(s, cp, n)
	if node == nil {
		return nil, schedErr(p, fmt.Sprintf("node at %v", path))
	}
	return node, nil
}

// scheduleYAML prints the schedule of node (which it frees).
func schedPrint(p *C.isl_ctx, node *C.isl_schedule_node, what string) (string, error) {
	if node == nil {
		return "", schedErr(p, what)
	}
	s := C.isl_schedule_node_get_schedule(node)
	C.isl_schedule_node_free(node)
	if s == nil {
		return "", schedErr(p, what)
	}
	defer C.isl_schedule_free(s)
	return schedStr(p, C.tf_yaml(s, 0), what)
}

// ScheduleMap reads a schedule tree in isl's YAML form with
// isl_schedule_read_from_str and returns isl_schedule_get_map, printed.
// isl refuses trees with extension nodes.
func ScheduleMap(yaml string) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		return schedUmapStr(p, C.isl_schedule_get_map(s), "get map")
	})
}

// ScheduleExtendedMap is ScheduleMap computed by a walk over isl's tree
// that also handles extension nodes the way scheduletree does: the extra
// instances are scheduled at the outer band members the extension maps
// from, with the sequence positions of the branch in between. It starts
// from the universe of the root domain.
func ScheduleExtendedMap(yaml string) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		return schedUmapStr(p, C.tf_extended_map(s), "extended map")
	})
}

// ScheduleYAML reads a schedule tree and prints it back with isl's
// printer in block style, or with isl_schedule_to_str (flow style) when
// flow is set.
func ScheduleYAML(yaml string, flow bool) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		f := C.int(0)
		if flow {
			f = 1
		}
		return schedStr(p, C.tf_yaml(s, f), "print schedule")
	})
}

// ScheduleNode returns isl's prefix schedule
// (isl_schedule_node_get_prefix_schedule_union_map) and the instances
// reaching the node at path (isl_schedule_node_get_domain).
func ScheduleNode(yaml string, path []int) (prefix, domain string, err error) {
	_, err = schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		node, err := schedNodeAt(p, s, path)
		if err != nil {
			return "", err
		}
		defer C.isl_schedule_node_free(node)
		if prefix, err = schedUmapStr(p, C.isl_schedule_node_get_prefix_schedule_union_map(node), "prefix schedule"); err != nil {
			return "", err
		}
		d := C.isl_schedule_node_get_domain(node)
		if d == nil {
			return "", schedErr(p, "domain")
		}
		defer C.isl_union_set_free(d)
		domain, err = schedStr(p, C.isl_union_set_to_str(d), "domain")
		return "", err
	})
	return prefix, domain, err
}

// ScheduleTile tiles the band at path with isl_schedule_node_band_tile,
// with the options tile_scale_tile_loops and tile_shift_point_loops off,
// and returns the tree in block YAML.
func ScheduleTile(yaml string, path []int, sizes []int64) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		C.isl_options_set_tile_scale_tile_loops(p, 0)
		C.isl_options_set_tile_shift_point_loops(p, 0)
		node, err := schedNodeAt(p, s, path)
		if err != nil {
			return "", err
		}
		mv := C.isl_multi_val_zero(C.isl_schedule_node_band_get_space(node))
		for i, v := range sizes {
			mv = C.isl_multi_val_set_val(mv, C.int(i), C.isl_val_int_from_si(p, C.long(v)))
		}
		return schedPrint(p, C.isl_schedule_node_band_tile(node, mv), "tile")
	})
}

// ScheduleSplit splits the band at path after pos members
// (isl_schedule_node_band_split) and returns the tree in block YAML.
func ScheduleSplit(yaml string, path []int, pos int) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		node, err := schedNodeAt(p, s, path)
		if err != nil {
			return "", err
		}
		return schedPrint(p, C.isl_schedule_node_band_split(node, C.int(pos)), "split")
	})
}

// ScheduleGraft grafts the tree graft (YAML with a domain root) before or
// after the node at path (isl_schedule_node_graft_before/after) and
// returns the tree in block YAML.
func ScheduleGraft(yaml string, path []int, graft string, before bool) (string, error) {
	return schedCall(yaml, func(p *C.isl_ctx, s *C.isl_schedule) (string, error) {
		cg := C.CString(graft)
		defer C.free(unsafe.Pointer(cg))
		g := C.isl_schedule_read_from_str(p, cg)
		if g == nil {
			return "", schedErr(p, "read graft")
		}
		groot := C.isl_schedule_get_root(g)
		C.isl_schedule_free(g)
		node, err := schedNodeAt(p, s, path)
		if err != nil {
			C.isl_schedule_node_free(groot)
			return "", err
		}
		if before {
			node = C.isl_schedule_node_graft_before(node, groot)
		} else {
			node = C.isl_schedule_node_graft_after(node, groot)
		}
		return schedPrint(p, node, "graft")
	})
}
