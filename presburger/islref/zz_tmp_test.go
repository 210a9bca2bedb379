//go:build isl && cgo

package islref

import (
	"testing"
	"time"

	"tilefuse/presburger"
)

func TestZZSlow(t *testing.T) {
	for _, seed := range []uint64{1256, 1487, 1820, 1797} {
		rs := dimBoundsSet(seed)
		src := rs.String()
		for pos := range rs.dims {
			for _, max := range []bool{false, true} {
				s, _ := presburger.ParseSet(src)
				t0 := time.Now()
				var err error
				if max {
					_, err = s.DimMax(pos)
				} else {
					_, err = s.DimMin(pos)
				}
				t.Logf("seed %d %s: %v %v", seed, dimOptName(pos, max), time.Since(t0), err)
			}
		}
	}
}
