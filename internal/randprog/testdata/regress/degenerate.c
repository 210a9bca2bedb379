/* regress: n=0 m=1 T=0 */
/* Degenerate sizes: the loops over n are empty, those over m run once,
   the time loop not at all; tiles are all partial. */
void degenerate(int n, int m, int T, double A[n + 4][m + 4], double B[m + 4], double C[n + 4])
{
  int i, j, t;
  double tmp0[m + 4];
#pragma scop
  for (i = 0; i < m + 4; i++)
    tmp0[i] = 0.5 * B[i] + 1.0;
  for (i = 2; i < m + 2; i++)
    B[i] = 0.2 * (tmp0[i - 1] + tmp0[i] + tmp0[i + 2]);
  for (t = 0; t < T; t++) {
    for (i = 2; i < n + 2; i++)
      for (j = 2; j < m + 2; j++)
        A[i][j] = 0.2 * (A[i - 1][j] + A[i][j + 1] + A[i + 1][j - 1]);
  }
  for (i = 2; i < n + 2; i++)
    for (j = i; j < n + 2; j++)
      C[i] += 0.5 * (A[j][2] + C[j]);
  for (i = 2; i < m + 2; i++)
    for (j = 2; j < n + 2; j++)
      B[i] -= 0.25 * C[j];
#pragma endscop
}
