/* regress: n=5 T=1 */
/* known bug: AST generation's coalesce of loop bounds takes about 50 s per compilation (max with tiles 3,5; post untiled on cuda-emulate) */
/* Campaign seed 101269 (two workers compile without a deadline: a chunk ran
   16 minutes on it). The coalesce's subset test computes divisions with the
   parametric solver (pip), whose recursion of integer-emptiness tests rebuilt
   tableaus of 1,400 rows: the operation budget counted 20 million steps, not
   their size, and one compilation ran for more than 15 minutes. Since the
   budget also counts the entries those steps combine (presburger/budget.go),
   the compilation ends in about 50 s of one core; too slow for CI's 72
   combinations, and still far from the seconds it should take. */
void rp101269(int n, int T, double A[n + 4][n + 4], double B[n + 4], double C[n + 4][n + 4], double D[n + 4])
{
  int i, j, t;
  double tmp[n + 4][n + 4];
  double tmp1[n + 4];
  double tmp2[n + 4];
#pragma scop
  for (i = 0; i < n + 4; i++)
    for (j = 0; j < n + 4; j++)
      tmp[i][j] = 0.5 * A[i][j] + 2.0;
  for (t = 0; t < T; t++) {
    for (i = n + 1; i >= 2; i--)
      for (j = 2; j <= i && j < n + 2; j++)
        A[i - 1][j] = 0.33 * (C[i + 1][j] + C[i + 1][j - 1] + C[i][j]);
    for (i = 3; i < n + 2; i++)
      for (j = 3; j < n + 2; j += 2)
        if (i % 2 == 0)
          C[i][j] = 0.33 * (A[i][j] + A[j + 1][i - 1]);
  }
  for (i = 3; i < n + 2; i++)
  {
    B[i] = 0.5 * (C[i][i + 1] + B[i]) - 0.1 * C[i][i + 1];
    B[i] += 0.125 * (B[i + 1]) + 0.01 * i;
  }
  for (i = 2; i < n + 2; i++)
    if (i > 3)
      D[i] = 0.3 * (tmp[i / 3][i - 1] + D[i]);
  for (i = 0; i < n + 4; i++)
    tmp1[i] = 0.5 * B[i] + 1.0;
  for (i = 2; i < n + 2; i++)
    tmp1[i + 1] = 0.2 * (B[i + 2] + B[(i + 1) / 2 + 1] + B[i / 2]);
  for (i = 0; i < n + 4; i++)
    tmp2[i] = 0.5 * B[i] + 2.0;
  for (i = 2; i < n + 2; i++)
    tmp2[i] = 0.2 * (tmp1[i / 3] + tmp1[i + 1] + tmp1[(i + 1) / 2 + 1] + tmp1[i + 1]);
  for (i = 2; i < n + 2; i += 2)
    for (j = i; j < n + 2; j++)
      tmp[i][j] = 0.2 * (tmp2[(i + 1) / 2 + 1] + tmp2[i + 2] + tmp2[j - 1] + tmp2[j - 1]);
#pragma endscop
}
