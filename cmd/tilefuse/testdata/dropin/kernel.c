/* The kernel of the drop-in test: main.c calls smooth, built either from
   this file by gcc or from 'tilefuse compile -c'; the outputs must be
   identical. A stencil, a reduction that reads its result, and a scalar
   passed by value. */
void smooth(int n, int m, double alpha, double A[64][80], double B[64][80], double s[64])
{
  int i, j;
  for (i = 1; i < n - 1; i++)
    for (j = 1; j < m - 1; j++)
      B[i][j] = alpha * (A[i - 1][j] + A[i][j - 1] + A[i][j] + A[i][j + 1] + A[i + 1][j]);
  for (i = 1; i < n - 1; i++) {
    s[i] = 0.0;
    for (j = 1; j < m - 1; j++)
      s[i] += B[i][j] * B[i][j];
  }
}
