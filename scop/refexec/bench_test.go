package refexec_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// gemm is PolyBench's C = alpha*A*B + beta*C in f32:
//
//	for (i = 0; i < NI; i++) {
//	  for (j = 0; j < NJ; j++)
//	    C[i][j] *= beta;                                  // S0
//	  for (k = 0; k < NK; k++)
//	    for (j = 0; j < NJ; j++)
//	      C[i][j] += alpha * A[i][k] * B[k][j];           // S1
//	}
func gemm(t testing.TB) *scop.Program {
	ni := &scop.Param{Name: "NI", T: scop.I32}
	nj := &scop.Param{Name: "NJ", T: scop.I32}
	nk := &scop.Param{Name: "NK", T: scop.I32}
	a := arr("A", scop.F32, ni, nk)
	b := arr("B", scop.F32, nk, nj)
	c := arr("C", scop.F32, ni, nj)
	a.LiveIn, b.LiveIn, c.LiveIn, c.LiveOut = true, true, true, true
	i, j := iterI("i", 0), iterI("j", 1)
	s0 := stmt(t, "S0", []string{"i", "j"}, "[NI, NJ, NK] -> { S0[i, j] : 0 <= i < NI and 0 <= j < NJ }",
		"[NI, NJ, NK] -> { S0[i, j] -> [i, 0, j, 0] }", ref(c, i, j), bin(scop.Mul, rd(c, i, j), cF32(1.2)))
	i, k, j := iterI("i", 0), iterI("k", 1), iterI("j", 2)
	prod := bin(scop.Mul, bin(scop.Mul, cF32(1.5), rd(a, i, k)), rd(b, k, j))
	s1 := stmt(t, "S1", []string{"i", "k", "j"}, "[NI, NJ, NK] -> { S1[i, k, j] : 0 <= i < NI and 0 <= j < NJ and 0 <= k < NK }",
		"[NI, NJ, NK] -> { S1[i, k, j] -> [i, 1, k, j] }", ref(c, i, j), bin(scop.Add, rd(c, i, j), prod))
	return program(t, []string{"NI", "NJ", "NK"}, "[NI, NJ, NK] -> { : NI >= 1 and NJ >= 1 and NK >= 1 }", []*scop.Array{a, b, c}, s0, s1)
}

// BenchmarkGemm runs gemm at PolyBench's MINI, SMALL and MEDIUM sizes;
// instances/s counts statement instances (setup included).
func BenchmarkGemm(b *testing.B) {
	for _, bc := range []struct {
		name       string
		ni, nj, nk int64
	}{{"MINI", 20, 25, 30}, {"SMALL", 60, 70, 80}, {"MEDIUM", 200, 220, 240}} {
		b.Run(bc.name, func(b *testing.B) {
			p := gemm(b)
			params := map[string]int64{"NI": bc.ni, "NJ": bc.nj, "NK": bc.nk}
			bufs, err := refexec.Alloc(p, params)
			if err != nil {
				b.Fatal(err)
			}
			for _, name := range []string{"A", "B", "C"} {
				bufs[name].Fill(1)
			}
			b.ResetTimer()
			for range b.N {
				if err := refexec.Run(p, params, bufs); err != nil {
					b.Fatal(err)
				}
			}
			n := bc.ni*bc.nj + bc.ni*bc.nj*bc.nk
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "instances/s")
		})
	}
}
