/* The random-program campaign's seed 101042: post-tiling fusion's tree
   takes more than the default operation budget to check exactly. */
void rp101042(int n, double A[n + 4][n + 4], double B[n + 4][n + 4], double C[n + 4][n + 4], int D[n + 4])
{
  int i, j;
  double tmp0[n + 4][n + 4];
  double tmp1[n + 4][n + 4];
  double tmp2[n + 4][n + 4];
#pragma scop
  for (i = n + 1; i >= 2; i--)
    for (j = 2; j < n + 1; j++)
      if (i < n)
        C[i][j] = 0.5 * (A[(i + 1) / 2 + 1][j] + B[j][i - 1] + C[i][j]) + 1.5;
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp0[i][j] = 0.5 * A[i][j] + 0.0;
  for (i = 2; i < n + 2; i++)
    for (j = max(2, i - 1); j < n + 2; j++)
      tmp0[i][j] = 0.2 * (A[i][(j + 1) / 2 + 1] + A[i + 1][j / 2] + A[i - 2][j - 2] + A[j - 2][i + 1] + A[(j + 1) / 2 + 1][(i + 1) / 2 + 1]);
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp1[i][j] = 0.5 * A[i][j] + 0.0;
  for (i = 2; i < n + 2; i += 2)
    for (j = max(2, i - 1); j < min(i + 2, n + 2); j++)
      if ((i + 1) % 3 != 1)
        tmp1[i][j] = 0.2 * (tmp0[j + 1][i + 1] + tmp0[i + 1][j + 2] + tmp0[i - 2][j + 2] + tmp0[i + 2][j - 1] + tmp0[j - 2][(i + 1) / 2 + 1]);
  for (i = 2; i < n + 1; i++)
    for (j = 2; j <= i && j < n + 2; j++)
      if (i < n)
        A[i][j] = 0.2 * (tmp1[i + 1][j - 2] + tmp1[(j + 1) / 2 + 1][(i + 1) / 2 + 1] + tmp1[i + 2][(j + 1) / 2 + 1] + tmp1[j][i - 1] + tmp1[j][i / 3]);
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp2[i][j] = 0.5 * A[i][j] + 2.0;
  for (i = 3; i < n + 2; i++)
    for (j = 2; j < n + 2; j++)
      tmp2[i][j] = 0.2 * (A[j + 2][i + 1] + A[i + 1][(j + 1) / 2 + 1] + A[i / 3][j + 1] + A[i - 1][j - 2]);
  for (i = 2; i < n + 2; i += 2)
    for (j = 2; j < n + 1; j++)
      B[i][j - 1] = 0.2 * (tmp2[i + 2][j / 3] + tmp2[j + 1][i + 2] + tmp2[j + 1][i / 3] + tmp2[i - 1][j + 2] + tmp2[i / 2][j - 1]);
#pragma endscop
}
