/* Two chained matrix products in the shape of PolyBench's 2mm
   (D = alpha * A * B * C + beta * D) at its LARGE sizes, written as a
   user would: under the old default the fused nest's inner loop ran to
   max(nj, nl) with guards inside it, 5-6x slower than gcc -O2. */
void mm2(int ni, int nj, int nk, int nl, double alpha, double beta,
         double tmp[800][900], double A[800][1100], double B[1100][900],
         double C[900][1200], double D[800][1200])
{
  int i, j, k;
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < nk; ++k)
        tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
  for (i = 0; i < ni; i++)
    for (j = 0; j < nl; j++) {
      D[i][j] *= beta;
      for (k = 0; k < nj; ++k)
        D[i][j] += tmp[i][k] * C[k][j];
    }
}
