/* Data-dependent conditions: a threshold with an else branch, a guard
   around a loop nest, a guard reading a scalar, a nested guard. */
void threshold(int n, double A[n + 16], double B[n + 16], double M[n + 16][n + 16], double out[n + 16])
{
  int i, j;
  double t;
#pragma scop
  t = 1.5;
  for (i = 0; i < n; i++)
    if (A[i] > 2.0)
      B[i] = 2.0 * A[i];
    else
      B[i] = A[i] - 1.0;
  for (i = 0; i < n; i++)
    if (B[i] > t)
      for (j = 0; j < n; j++)
        M[i][j] = B[i] + A[j];
  for (i = 0; i < n; i++) {
    out[i] = 0.0;
    for (j = 0; j < n; j++)
      if (M[i][j] > 3.0 && j > 0)
        if (A[j] < 2.5)
          out[i] += M[i][j];
  }
#pragma endscop
}
