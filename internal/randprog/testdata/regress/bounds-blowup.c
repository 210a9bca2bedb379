/* regress: n=8 m=4 T=3 */
/* Campaign seed 104293 (max, tiles 3,5 and 4: skewed time tiles under a
   wavefront): eliminating the inner locals of a loop's bounds by
   Fourier-Motzkin left hundreds of rows, each a term of the bound's min
   or max (85 KB of C, 2.4 MB of IR that opt did not build in a minute),
   and runs met every lower row with every upper one: 517,895 constraints,
   a compilation that did not end. The AST generator now drops implied
   rows after each elimination and removes the redundant ones when many
   are left (2.6 KB of C), and skips the meet past 256 rows. */
/* combos: strategy max, tile 3,5, target cpu */
/* combos: strategy max, tile 3,5, target cuda-emulate (threads */
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))
void rp104293(int n, int m, int T, double A[m + 4][m + 4], int B[m + 4][m + 4], double C[m + 4][m + 4])
{
  int i, j, t;
  double tmp[n + 4];
#pragma scop
  for (i = 0; i < n + 4; i++)
    tmp[i] = 1.0 + 0.0;
  for (i = 2; i < m + 2; i++)
    for (j = 2; j < m + 1; j++)
      if (i <= j + 1)
        B[i][j] = (A[j - 2][i + 1] + A[(j + 1) / 2 + 1][i - 1] + A[i + 2][(j + 1) / 2 + 1]) / 3;
  for (t = 0; t < T; t++) {
    for (i = 2; i < m + 2; i++)
      for (j = (i + 1) / 2 + 1; j < m + 2; j++)
        A[i][j] = 0.2 * (A[i - 1][j] + A[i - 1][j + 1]);
  }
#pragma endscop
}
