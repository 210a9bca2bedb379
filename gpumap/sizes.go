package gpumap

import "fmt"

// Dims is the number of grid and block dimensions (x, y, z).
const Dims = 3

// Default launch sizes. 32 x 8 threads make blocks of 256 threads whose
// x dimension is one warp; the grid bounds are CUDA's limits for y and z.
var (
	DefaultThreadSizes = []int64{32, 8, 1}
	DefaultBlockSizes  = []int64{65535, 65535, 65535}
)

// Sizes bound the launches: the most threads per block and blocks per
// grid along x, y and z. Missing dimensions take the defaults.
type Sizes struct {
	Threads, Blocks []int64
}

// Threads3 returns the thread bounds completed with the defaults.
func (s Sizes) Threads3() [Dims]int64 { return complete(s.Threads, DefaultThreadSizes) }

// Blocks3 returns the block bounds completed with the defaults.
func (s Sizes) Blocks3() [Dims]int64 { return complete(s.Blocks, DefaultBlockSizes) }

func complete(sizes, def []int64) [Dims]int64 {
	var out [Dims]int64
	for d := range out {
		out[d] = def[d]
		if d < len(sizes) {
			out[d] = sizes[d]
		}
	}
	return out
}

// Check validates the sizes; cuda adds CUDA's limit of 1024 threads per
// block (the emulation has none).
func (s Sizes) Check(cuda bool) error {
	if len(s.Threads) > Dims || len(s.Blocks) > Dims {
		return fmt.Errorf("at most %d thread and block sizes (x, y, z)", Dims)
	}
	ts, bs := s.Threads3(), s.Blocks3()
	n := int64(1)
	for d := 0; d < Dims; d++ {
		if ts[d] < 1 || bs[d] < 1 {
			return fmt.Errorf("thread sizes %v and block sizes %v must be positive", ts, bs)
		}
		if ts[d] > 1024 || bs[d] > 1<<31-1 {
			return fmt.Errorf("thread sizes %v or block sizes %v out of range", ts, bs)
		}
		n *= ts[d]
	}
	if cuda && n > 1024 {
		return fmt.Errorf("thread sizes %v make blocks of %d threads; CUDA allows 1024", ts, n)
	}
	return nil
}
