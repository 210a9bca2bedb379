package presburger_test

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// Example computes what a dependence analysis asks of the library: the
// elements a 3-point stencil reads, the distance vectors of a flow
// dependence, and an exact count, all with a parameter.
func Example() {
	dom, _ := presburger.ParseSet("[n] -> { S[i] : 1 <= i < n - 1 }")
	reads, _ := presburger.ParseMap("[n] -> { S[i] -> A[j] : i - 1 <= j <= i + 1 }")
	footprint, _ := dom.Apply(reads)
	fmt.Println("footprint:", footprint)

	// The pairs of instances that touch one element of B (S[i] writes B[i]
	// and reads B[i - 2] and B[i + 2]), both ways round.
	dep, _ := presburger.ParseMap("[n] -> { S[i] -> S[i + 2] : 0 <= i < n - 2; S[i] -> S[i - 2] : 2 <= i < n }")
	dist, _ := dep.Deltas()
	fmt.Println("distances:", dist)

	tri, _ := presburger.ParseSet("{ [i, j] : 0 <= j <= i < 10 and (i + j) mod 3 = 0 }")
	n, _ := tri.Count()
	fmt.Println("points:", n)
	// Output:
	// footprint: [n] -> { A[j] : n >= 3 and 0 <= j < n }
	// distances: [n] -> { S[2] : n >= 3; S[-2] : n >= 3 }
	// points: 19
}

// ExampleSet_Subtract: set difference is exact, with the existentials
// that an integer stride needs.
func ExampleSet_Subtract() {
	all, _ := presburger.ParseSet("[n] -> { [i] : 0 <= i < n }")
	even, _ := presburger.ParseSet("[n] -> { [i] : exists k : i = 2k }")
	odd, _ := all.Subtract(even)
	fmt.Println(odd)
	// Output:
	// [n] -> { [i] : 0 <= i < n and i mod 2 >= 1 }
}
