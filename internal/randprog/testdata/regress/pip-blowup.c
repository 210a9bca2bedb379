/* regress: n=5 T=1 */
/* Campaign seed 101269 (two workers compile without a deadline: a chunk ran
   16 minutes on it; max with tiles 3,5, and post untiled on cuda-emulate).
   The AST generator's coalesce of a loop's pieces tests subsets by
   computing divisions with the parametric solver (pip), whose recursion of
   integer-emptiness tests rebuilt tableaus of 1,400 rows: the operation
   budget counted 20 million steps, not their size, and one compilation ran
   for more than 15 minutes. The budget now also counts the entries those
   steps combine (presburger/budget.go), which brought it to 50 s, and the
   loop bounds' coalesce, an optimisation the simple hull does without,
   gets a twentieth of the budget (ast.boundsCoalesceOps): 1 s, the same
   code. */
/* combos: strategy max, tile 3,5 */
/* combos: strategy post, untiled */
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
