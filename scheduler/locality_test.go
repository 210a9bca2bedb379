package scheduler

import (
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
)

// TestInnermostWalksRows: the innermost loop of each statement named
// walks its arrays along rows: a step of its last band member advances
// only the iterator of the rows (fdtd-2d's smart band was t, t+j, t+i, a
// column walk, before the band's members were reordered; gemm's was i, j,
// k; 2mm's S3, inside the parallel i loop, was j, k). Max fusion gives
// 2mm's S3 a skewed outer band (i, j+k) shared with the other statements,
// which the reordering does not touch.
func TestInnermostWalksRows(t *testing.T) {
	for _, tc := range []struct {
		kernel, stmt string
		step         []string
		modes        []Fuse
	}{
		{"fdtd-2d", "S1", []string{"0", "0", "1"}, modes},
		{"fdtd-2d", "S3", []string{"0", "0", "1"}, modes},
		{"jacobi-2d", "S0", []string{"0", "0", "1"}, modes},
		{"seidel-2d", "S0", []string{"0", "0", "1"}, modes},
		{"heat-3d", "S0", []string{"0", "0", "0", "1"}, modes},
		{"gemm", "S1", []string{"0", "0", "1"}, modes},    // S1[i, k, j]
		{"2mm", "S3", []string{"0", "1", "0"}, modes[:2]}, // S3[i, j, k]
		{"syrk", "S1", []string{"0", "1", "0"}, modes},    // S1[i, k, j]: A[i][k], A[j][k] by rows
		// cov[i][j] += data[k][i] * data[k][j]: smart fused it with the
		// normalisation under (i, j), k innermost by columns, until
		// localitySplit distributed them.
		{"covariance", "S5", []string{"0", "1", "0"}, modes[:2]},   // S5[i, j, k]
		{"correlation", "S13", []string{"0", "1", "0"}, modes[:2]}, // S13[i, j, k]
	} {
		_, p := kernel(t, tc.kernel)
		g := memoryDeps(t, p)
		for _, f := range tc.modes {
			tr := mustSchedule(t, p, g, f)
			var rows [][]int64
			for _, b := range bands(tr) {
				for _, h := range members(t, b, tc.stmt) {
					rows = append(rows, h[:len(h)-1])
				}
			}
			rhs := make([]int64, len(rows))
			rhs[len(rhs)-1] = 1
			got := ratStrings(solveUnique(rows, rhs, len(tc.step)))
			if diff := cmp.Diff(tc.step, got); diff != "" {
				t.Errorf("%s %s %s: the innermost loop's step (-want +got):\n%s\n%s", tc.kernel, f, tc.stmt, diff, sketch(tr))
			}
		}
	}
}

func ratStrings(v []*big.Rat) []string {
	out := make([]string, len(v))
	for i, r := range v {
		out[i] = r.RatString()
	}
	return out
}

func TestSolveUnique(t *testing.T) {
	for _, tc := range []struct {
		name string
		rows [][]int64
		rhs  []int64
		n    int
		want []string // nil: no unique solution
	}{
		{"skew", [][]int64{{1, 0, 0}, {1, 1, 0}, {1, 0, 1}}, []int64{0, 0, 1}, 3, []string{"0", "0", "1"}},
		{"rational", [][]int64{{2, 0}, {0, 1}}, []int64{1, 0}, 2, []string{"1/2", "0"}},
		{"free", [][]int64{{1, 0, 0}, {0, 1, 0}}, []int64{0, 1}, 3, nil},
		{"inconsistent", [][]int64{{1, 0}, {0, 1}, {1, 1}}, []int64{0, 0, 1}, 2, nil},
		{"dependent rows", [][]int64{{1, 0}, {0, 1}, {1, 1}}, []int64{1, 0, 1}, 2, []string{"1", "0"}},
	} {
		got := solveUnique(tc.rows, tc.rhs, tc.n)
		if tc.want == nil {
			if got != nil {
				t.Errorf("%s: %v, want no unique solution", tc.name, ratStrings(got))
			}
			continue
		}
		if diff := cmp.Diff(tc.want, ratStrings(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestAccessStride(t *testing.T) {
	i := &scop.Iter{Name: "i", Index: 0, T: scop.I32}
	j := &scop.Iter{Name: "j", Index: 1, T: scop.I32}
	n := &scop.Param{Name: "n", T: scop.I32}
	one := &scop.Const{T: scop.I32, I: 1}
	two := &scop.Const{T: scop.I32, I: 2}
	add := func(x, y scop.Expr) scop.Expr { return &scop.Binary{Op: scop.Add, X: x, Y: y, T: scop.I32} }
	mul := func(x, y scop.Expr) scop.Expr { return &scop.Binary{Op: scop.Mul, X: x, Y: y, T: scop.I32} }
	stepJ := []*big.Rat{big.NewRat(0, 1), big.NewRat(1, 1)}
	for _, tc := range []struct {
		name  string
		index []scop.Expr
		want  int
	}{
		{"row", []scop.Expr{i, j}, strideRow},
		{"row shifted", []scop.Expr{add(i, one), add(j, n)}, strideRow},
		{"column", []scop.Expr{j, i}, strideFar},
		{"same element", []scop.Expr{i, add(i, n)}, strideNone},
		{"scalar", nil, strideNone},
		{"strided row", []scop.Expr{i, mul(two, j)}, strideRow},
		{"not affine", []scop.Expr{i, mul(j, n)}, strideUnknown},
		{"floor division", []scop.Expr{i, &scop.Binary{Op: scop.FloorDiv, X: j, Y: two, T: scop.I32}}, strideUnknown},
	} {
		if got := accessStride(scop.Ref{Array: "A", Index: tc.index}, stepJ, 2); got != tc.want {
			t.Errorf("%s: stride %d, want %d", tc.name, got, tc.want)
		}
	}
}
