/* regress: n=7 */
/* Campaign seed 50019 (post, tiles of 4): a footprint's convex hull ran
   Fourier-Motzkin reductions of 4096 rows outside the operation's budget,
   100 s per compilation, past the campaign's deadline. fmProject now
   charges the operation's budget, and post bounds the hull's work. */
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))
/* combos: strategy post */
void rp50019(int n, double A[n + 4][n + 4], double B[n + 4][n + 4], int C[n + 4])
{
  int i, j, k;
  double tmp0[n + 4][n + 4];
  double tmp1[n + 4][n + 4];
#pragma scop
  for (i = 2; i < n + 2; i++)
    for (j = 2; j < min(i + 2, n + 2); j++)
      B[i][j] = 0.5 * (C[i] + C[i + 1] + B[i][j]) - 0.1 * C[i];
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp0[i][j] = 0.5 * A[i][j] + 1.0;
  for (i = 2; i < n + 2; i++)
    for (j = (i + 1) / 2 + 1; j < n + 2; j++)
      tmp0[i][j] = 0.2 * (B[j + 2][i + 2] + B[j][i - 1] + B[i - 1][j - 2] + B[i - 1][j + 1]);
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp1[i][j] = 0.5 * A[i][j] + 1.0;
  for (i = 3; i < n + 2; i += 2)
    for (j = max(2, i - 1); j < min(i + 2, n + 2); j++)
      if (i + j <= n + 3)
        tmp1[i][j] = 0.2 * (tmp0[i / 3][(j + 1) / 2 + 1] + tmp0[j - 1][i + 2] + tmp0[i - 2][j - 2]);
  for (i = 3; i < n + 2; i += 2)
    for (j = 2; j < n + 2; j++)
      A[i + 1][j] = 0.2 * (tmp1[j - 2][i / 2] + tmp1[j + 1][i + 1] + tmp1[j - 2][i]);
  for (i = 2; i < n + 2; i++)
    for (j = 3; j < n + 2; j++)
      for (k = 2; k < n + 1; k++)
        C[i] -= C[(j + 1) / 2 + 1] + C[k / 2] + 2 * k - 1;
#pragma endscop
}
