package scheduletree_test

import (
	"fmt"
	"log"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}

// twoStatements is the tree of
//
//	for (i = 0; i < N; i++)
//	  for (j = 0; j < N; j++) {
//	    S: A[i][j] = f(i, j);
//	    T: B[i][j] = g(A[i][j - 1]);
//	  }
//
// with one band over both statements and a sequence ordering S before T.
func twoStatements() scheduletree.Tree {
	dom := must(presburger.ParseUnionSet("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"))
	sched := must(presburger.ParseUnionMap("{ S[i, j] -> [i, j]; T[i, j] -> [i, j] }"))
	return must(scheduletree.NewTree(scheduletree.NewDomain(dom,
		scheduletree.NewBand(scheduletree.Band{Schedule: sched, Permutable: true, Coincident: []bool{true, false}},
			scheduletree.NewSequence(
				scheduletree.NewFilter(must(presburger.ParseUnionSet("{ S[i, j] }")), nil),
				scheduletree.NewFilter(must(presburger.ParseUnionSet("{ T[i, j] }")), nil),
			)))))
}

// Build the schedule tree of a two-statement program, tile its band and
// print the result in isl's YAML form.
func Example() {
	tree := twoStatements()
	tiled := must(tree.TileBand(scheduletree.Path{0}, []int64{32, 16}))
	if err := scheduletree.Validate(tiled); err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(must(scheduletree.MarshalYAML(tiled))))
	// Output:
	// domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
	// child:
	//   schedule: "[{ S[i, j] -> [(floor(i/32))]; T[i, j] -> [(floor(i/32))] }, { S[i, j] -> [(floor(j/16))]; T[i, j] -> [(floor(j/16))] }]"
	//   permutable: 1
	//   coincident: [ 1, 0 ]
	//   child:
	//     schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j)] }]"
	//     permutable: 1
	//     coincident: [ 1, 0 ]
	//     child:
	//       sequence:
	//       - filter: "{ S[i, j] }"
	//       - filter: "{ T[i, j] }"
}

// The schedule map of a tree, as isl_schedule_get_map gives it: the
// sequence position becomes a constant dimension.
func ExampleTree_Map() {
	tree := twoStatements()
	fmt.Println(must(tree.Map()))
	fmt.Println(must(tree.PrefixSchedule(scheduletree.Path{0, 0, 1, 0})))
	// Output:
	// { S[i, j] -> [i, j, 0]; T[i, j] -> [i, j, 1] }
	// { T[i, j] -> [i, j] }
}

// Graft the instances of a producer U before the band of T, as post-tiling
// fusion does: an extension node introduces them at every point of the
// outer band and a sequence runs them first.
func ExampleTree_GraftBefore() {
	tree := twoStatements()
	tiled := must(tree.TileBand(scheduletree.Path{0}, []int64{32, 16}))
	ext := must(presburger.ParseUnionMap("[N] -> { [o0, o1] -> U[i, j] : 32o0 <= i < 32o0 + 32 and 16o1 <= j < 16o1 + 16 and 0 <= i < N and 0 <= j < N }"))
	uBand := scheduletree.Band{Schedule: must(presburger.ParseUnionMap("{ U[i, j] -> [i, j] }"))}
	graft := scheduletree.NewExtension(ext, scheduletree.NewBand(uBand, nil))
	fused, at, err := tiled.GraftBefore(scheduletree.Path{0, 0}, graft)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("point band now at", at)
	fmt.Print(string(must(scheduletree.MarshalYAML(fused))))
	// Output:
	// point band now at /0/0/0/1/0
	// domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
	// child:
	//   schedule: "[{ S[i, j] -> [(floor(i/32))]; T[i, j] -> [(floor(i/32))] }, { S[i, j] -> [(floor(j/16))]; T[i, j] -> [(floor(j/16))] }]"
	//   permutable: 1
	//   coincident: [ 1, 0 ]
	//   child:
	//     extension: "[N] -> { [o0, o1] -> U[i, j] : i >= 32o0 and 0 <= i <= 31 + 32o0 and i < N and j >= 16o1 and 0 <= j <= 15 + 16o1 and j < N }"
	//     child:
	//       sequence:
	//       - filter: "{ U[i, j] }"
	//         child:
	//           schedule: "[{ U[i, j] -> [(i)] }, { U[i, j] -> [(j)] }]"
	//       - filter: "{ S[i, j]; T[i, j] }"
	//         child:
	//           schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j)] }]"
	//           permutable: 1
	//           coincident: [ 1, 0 ]
	//           child:
	//             sequence:
	//             - filter: "{ S[i, j] }"
	//             - filter: "{ T[i, j] }"
}

// Validate names the node of each problem by its path.
func ExampleValidate() {
	dom := must(presburger.ParseUnionSet("{ S[i] : 0 <= i < 10 }"))
	tree := must(scheduletree.NewTree(scheduletree.NewDomain(dom, scheduletree.NewSequence(
		scheduletree.NewFilter(must(presburger.ParseUnionSet("{ S[i] : i < 5 }")), nil),
		scheduletree.NewFilter(must(presburger.ParseUnionSet("{ S[i] : i > 5 }")), nil),
	))))
	fmt.Println(scheduletree.Validate(tree))
	// Output:
	// scheduletree: node /0 (sequence): no filter holds the reaching instances { S[i = 5] }
}

// The JSON inspection format.
func ExampleMarshal() {
	dom := must(presburger.ParseUnionSet("{ S[i] : 0 <= i < 10 }"))
	sched := must(presburger.ParseUnionMap("{ S[i] -> [i] }"))
	tree := must(scheduletree.NewTree(scheduletree.NewDomain(dom,
		scheduletree.NewMark("parallel", scheduletree.NewBand(scheduletree.Band{Schedule: sched, Coincident: []bool{true}}, nil)))))
	fmt.Print(string(must(scheduletree.Marshal(tree))))
	// Output:
	// {
	//   "kind": "domain",
	//   "domain": "{ S[i] : 0 <= i <= 9 }",
	//   "child": {
	//     "kind": "mark",
	//     "mark": "parallel",
	//     "child": {
	//       "kind": "band",
	//       "schedule": "{ S[i] -> [i] }",
	//       "permutable": false,
	//       "coincident": [true]
	//     }
	//   }
	// }
}

// Tile a time-skewed stencil band and turn its tile band into a
// wavefront: the tiles on one anti-diagonal of the first two tile
// members run in parallel (the inner band's first member is coincident).
func ExampleTree_Wavefront() {
	dom := must(presburger.ParseUnionSet("[T, N] -> { S[t, i] : 0 <= t < T and 0 < i < N }"))
	sched := must(presburger.ParseUnionMap("{ S[t, i] -> [t, 2t + i] }"))
	tree := must(scheduletree.NewTree(scheduletree.NewDomain(dom,
		scheduletree.NewBand(scheduletree.Band{Schedule: sched, Permutable: true}, nil))))
	tiled := must(tree.TileBand(scheduletree.Path{0}, []int64{32, 32}))
	fmt.Print(must(tiled.Wavefront(scheduletree.Path{0}, 2)).Text())
	// Output:
	// domain [T, N] -> { S[t, i] : 0 <= t < T and 0 < i < N }
	//   band { S[t, i] -> [floor(t/32) + floor((2t + i)/32)] }  (permutable, coincident [0])
	//     band { S[t, i] -> [floor((2t + i)/32)] }  (permutable, coincident [1])
	//       band { S[t, i] -> [t, 2t + i] }  (permutable, coincident [0, 0])
}
