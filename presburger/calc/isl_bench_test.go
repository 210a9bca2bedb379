//go:build isl && cgo

package calc_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger/calc"
)

// BenchmarkTour times every printed statement of examples/tour.calc in
// tilefuse and in isl side by side:
//
//	go test -tags isl -run XXX -bench Tour ./presburger/calc
func BenchmarkTour(b *testing.B) {
	const file = "../../examples/tour.calc"
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	prog, err := calc.Parse(file, string(src))
	if err != nil {
		b.Fatal(err)
	}
	for i, st := range prog.Stmts {
		if st.Name != "" {
			continue
		}
		line := fmt.Sprintf("stmt%02d_line%d", i, st.Pos.Line)
		b.Run(line+"/tilefuse", func(b *testing.B) {
			if _, err := calc.Time(prog, calc.Tilefuse{}, i, b.N); err != nil {
				b.Skip(err)
			}
		})
		b.Run(line+"/isl", func(b *testing.B) {
			if _, err := islref.Time(prog, i, b.N); err != nil {
				b.Fatal(err)
			}
		})
	}
}
