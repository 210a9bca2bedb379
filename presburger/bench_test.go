package presburger

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/corpus"
)

// corpusSets parses the benchmark corpus once.
func corpusSets(b *testing.B) (as, bs []Set) {
	b.Helper()
	for _, c := range corpus.Cases {
		x, err := ParseSet(c.A)
		if err != nil {
			b.Fatalf("%s: %v", c.Name, err)
		}
		y, err := ParseSet(c.B)
		if err != nil {
			b.Fatalf("%s: %v", c.Name, err)
		}
		as, bs = append(as, x), append(bs, y)
	}
	return as, bs
}

// benchEach runs op on every corpus case as a sub-benchmark.
func benchEach(b *testing.B, op func(i int, a, c Set) error) {
	as, bs := corpusSets(b)
	for i, c := range corpus.Cases {
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				if err := op(i, as[i], bs[i]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for _, c := range corpus.Cases {
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ParseSet(c.A); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkIntersect(b *testing.B) {
	benchEach(b, func(_ int, a, c Set) error { _, err := a.Intersect(c); return err })
}

func BenchmarkSubtract(b *testing.B) {
	benchEach(b, func(_ int, a, c Set) error { _, err := a.Subtract(c); return err })
}

func BenchmarkIsEmpty(b *testing.B) {
	benchEach(b, func(_ int, a, c Set) error {
		x, err := a.Intersect(c)
		if err != nil {
			return err
		}
		_, err = x.IsEmpty()
		return err
	})
}

func BenchmarkProject(b *testing.B) {
	benchEach(b, func(i int, a, _ Set) error {
		n := corpus.Cases[i].Project
		_, err := a.ProjectOut(a.Space().NOut()-n, n)
		return err
	})
}
