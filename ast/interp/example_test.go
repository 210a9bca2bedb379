package interp_test

import (
	"fmt"
	"log"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scheduler"
)

// Example runs the Halide tutorial's producer-consumer pipeline in its
// original order (Halide's producer.compute_root()) on a 4 x 4 output
// and prints what it executed: 25 producer values, each one call to sin,
// then 16 consumer values, each loading 4 of them.
func Example() {
	p, err := pipelines.ProducerConsumer()
	if err != nil {
		log.Fatal(err)
	}
	tree, err := scheduler.Original(p)
	if err != nil {
		log.Fatal(err)
	}
	n, err := ast.Generate(tree, ast.Options{})
	if err != nil {
		log.Fatal(err)
	}
	st, err := interp.Run(p, n, map[string]int64{"R": 4, "C": 4}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []string{"producer_s0", "consumer_s0"} {
		c := st.Stmts[s]
		fmt.Printf("%s: %d instances, %d loads, %d stores\n", s, c.Instances, c.Loads, c.Stores)
	}
	fmt.Printf("sin: %d calls; total: %d loads, %d stores\n", st.Calls["sin"], st.Loads, st.Stores)
	// Output:
	// producer_s0: 25 instances, 0 loads, 25 stores
	// consumer_s0: 16 instances, 64 loads, 16 stores
	// sin: 25 calls; total: 64 loads, 41 stores
}
