// Package scheduletree is tilefuse's central data structure: schedule trees
// as in isl (Verdoolaege, Guelton, Grosser, Cohen, "Schedule trees", IMPACT
// 2014). It owns the node kinds, band members and their flags, navigation
// and editing, validation, the JSON inspection format and isl's YAML form.
// Tiling, fusion, mapping and AST generation are built on it elsewhere.
//
// # Nodes
//
// A Tree is an immutable value whose root is a domain node; every edit
// returns a new Tree that shares the untouched subtrees with the old one.
// The kinds are those of isl:
//
//   - domain: the statement instances (a presburger.UnionSet); the root.
//   - context: constraints on the parameters (a parameter presburger.Set).
//   - band: a partial schedule with n >= 1 members (see Band): one map per
//     statement from its instances to an unnamed n-tuple, a piecewise
//     quasi-affine function; a permutable flag, a coincident flag per
//     member (the member carries no dependence) and an AST option per
//     member (atomic, unroll, separate or default).
//   - sequence / set: children, all filters, executed in order / in any order.
//   - filter: only the instances in its union set pass to its child.
//   - extension: a union map from the prefix schedule space (the members of
//     the outer bands, an unnamed tuple) to extra statement instances that
//     are executed at that point. Post-tiling fusion and Halide's
//     compute_at insert them.
//   - expansion: a contraction (a function from the instances below to the
//     instances above) and an expansion (the inverse relation).
//   - mark: a name, such as "skipped" (nothing is generated below),
//     "kernel", "thread", "parallel", "promote[A]".
//   - guard: a set of the prefix schedule space (or a parameter set) that
//     holds in the subtree.
//   - leaf: the end of a branch.
//
// Nodes are addressed by a Path, the child indices from the root (a node
// with one child has it at index 0; leaves are nodes too), or by a Cursor.
//
// # Queries
//
// Map, PrefixSchedule and Instances follow isl_schedule_get_map,
// isl_schedule_node_get_prefix_schedule_union_map and
// isl_schedule_node_get_domain, and compare equal to isl's answers (the
// tests in internal/islref check this with libisl). In particular, like
// isl, the schedule maps are not intersected with the root domain (a
// statement keeps the domain of its band schedules, restricted by the
// filters), the prefix schedule holds band members only, and the full
// map has one constant dimension per sequence or set node with more than
// one child, padded with zeros at the end. isl refuses extension nodes in
// these queries; here extension instances are included: they reach the
// nodes below at the prefix points the extension maps from, and the full
// map places them there with the branch's sequence positions in between.
//
// # Editing
//
// SplitBand, TileBand, PermuteBand and SetBand change bands;
// InsertMark, InsertFilter, InsertExtension, InsertContext, InsertGuard,
// InsertBand, InsertSequence and InsertSet put a node above a path (pass
// p.Child(0) to insert below the node at p); Delete removes a node with one
// child; DeleteChild removes a filter child of a sequence or set;
// GraftBefore and GraftAfter follow isl_schedule_node_graft_before/after.
//
// TileBand gives the tile band floor(s_k / size_k) over a point band s_k:
// isl_schedule_node_band_tile with the options tile_scale_tile_loops and
// tile_shift_point_loops off. (isl's defaults turn both on, giving tile
// members size_k * floor(s_k / size_k) and point members s_k mod size_k.)
// Both bands keep the permutable flag, the coincident flags and the
// options, as in isl.
//
// # Validation
//
// Validate checks the structure (kinds and numbers of children), that the
// filters of every sequence or set partition the instances reaching it,
// that band schedules are total functions on the instances reaching them,
// and that extensions and guards live in the prefix schedule space. Each
// problem is a *PathError naming the node.
//
// # JSON
//
// Marshal writes the inspection format, one object per node, indented by
// two spaces, keys in the order of the table below, sets and maps as isl
// strings (printed by package presburger in a form that reads back to the
// same text, so that Marshal(Unmarshal(Marshal(t))) is byte for byte
// Marshal(t)). Unmarshal reads it back, refusing unknown keys and keys of
// another kind.
//
//	key           kinds                            value
//	"kind"        all                              "domain", "context", "band", "sequence", "set",
//	                                               "filter", "extension", "expansion", "mark",
//	                                               "guard" or "leaf"
//	"domain"      domain                           union set: the statement instances
//	"context"     context                          parameter set, "[N] -> {  : N >= 1 }"
//	"schedule"    band                             union map from instances to an unnamed n-tuple
//	"permutable"  band                             true or false (written always)
//	"coincident"  band                             one boolean per member (written always)
//	"options"     band                             one of "default", "atomic", "unroll",
//	                                               "separate" per member (left out when all
//	                                               are "default")
//	"isolate"     band                             isl's isolate option, a set
//	                                               "{ isolate[[outer] -> [members]] : ... }"
//	"isolateOptions" band                          the options inside the isolated part, one
//	                                               per member (left out when all are "default")
//	"filter"      filter                           union set
//	"extension"   extension                        union map from the prefix schedule space
//	"contraction" expansion                        union map, a function
//	"expansion"   expansion                        union map
//	"mark"        mark                             the name
//	"guard"       guard                            set of the prefix schedule space
//	"child"       all but sequence, set and leaf   the child's object; left out when the
//	                                               child is a leaf
//	"children"    sequence, set                    list of the children's objects (filters)
//
// A complete example: S produces what T reads; T is tiled by 32 and each
// tile recomputes the S instances it needs (an extension), while S's own
// subtree is marked skipped:
//
//	{
//	  "kind": "domain",
//	  "domain": "[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
//	  "child": {
//	    "kind": "context",
//	    "context": "[N] -> {  : N > 0 }",
//	    "child": {
//	      "kind": "sequence",
//	      "children": [
//	        {
//	          "kind": "filter",
//	          "filter": "{ S[i] }",
//	          "child": {
//	            "kind": "mark",
//	            "mark": "skipped",
//	            "child": {
//	              "kind": "band",
//	              "schedule": "{ S[i] -> [i] }",
//	              "permutable": true,
//	              "coincident": [true]
//	            }
//	          }
//	        },
//	        {
//	          "kind": "filter",
//	          "filter": "{ T[i] }",
//	          "child": {
//	            "kind": "band",
//	            "schedule": "{ T[i] -> [floor(i/32)] }",
//	            "permutable": true,
//	            "coincident": [true],
//	            "options": ["separate"],
//	            "child": {
//	              "kind": "extension",
//	              "extension": "[N] -> { [o] -> S[i] : i >= 32o and 0 <= i <= 32 + 32o and i < N }",
//	              "child": {
//	                "kind": "sequence",
//	                "children": [
//	                  {
//	                    "kind": "filter",
//	                    "filter": "{ S[i] }",
//	                    "child": {
//	                      "kind": "band",
//	                      "schedule": "{ S[i] -> [i] }",
//	                      "permutable": true,
//	                      "coincident": [true]
//	                    }
//	                  },
//	                  {
//	                    "kind": "filter",
//	                    "filter": "{ T[i] }",
//	                    "child": {
//	                      "kind": "guard",
//	                      "guard": "[N] -> { [o] : 32o < N }",
//	                      "child": {
//	                        "kind": "band",
//	                        "schedule": "{ T[i] -> [i] }",
//	                        "permutable": true,
//	                        "coincident": [true]
//	                      }
//	                    }
//	                  }
//	                ]
//	              }
//	            }
//	          }
//	        }
//	      ]
//	    }
//	  }
//	}
//
// Its schedule map (Tree.Map) is
//
//	[N] -> { S[i] -> [0, i, 0, 0]; S[i] -> [1, o1, 0, i] : 0 <= i < N and -32 + i <= 32o1 <= i;
//	         T[i] -> [1, floor(i/32), 1, i] }
//
// # isl YAML
//
// MarshalYAML writes the form isl_schedule_read_from_str reads (block
// style, as isl's printer), with band schedules in multi-union-pw-aff
// notation ("[N] -> [{ S[i] -> [(i)] }, { S[i] -> [(floor(i/4))] :
// ... }]": per member, per statement, disjoint pieces of quasi-affine
// expressions with conditions). The writer checks that what it wrote
// reads back as the band's map. UnmarshalYAML reads that form and isl's
// own output, block or flow style (isl_schedule_to_str), with a small
// reader for the YAML subset isl uses: block and flow mappings and
// sequences, quoted and plain scalars, comments. isl insists on a child
// below a mark, so a mark over a leaf is written with "child: leaf",
// isl's explicit leaf.
//
// Band options are read as isl's isl_schedule_band_set_ast_build_options
// reads them: "atomic[x]", "unroll[x]" and "separate[x]" give member k
// the option when the set with x = k is not empty for some parameter
// values, so "{ separate[x] }" (or "separate[*]", "separate[s = 0:23]")
// is every member and "{ unroll[1] }" member 1; members out of range,
// "default[k]" and options of other names or arities are ignored, two
// options for one member are an error. "isolate[[outer] -> [members]] :
// ..." is the isolate set (Band.Isolate) and "[isolate[] -> unroll[k]]"
// the options inside it (Band.IsolateOptions). Contexts may be sets of
// the prefix schedule space ("{ [] : N > 0 }"). isl's tuple shorthands
// "*" and "lo:hi" are read in every set and map, and a backslash at the
// end of a line continues a double-quoted string.
package scheduletree
