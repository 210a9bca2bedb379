/* regress: m=3 T=2 */
/* Found by the campaign (seed 100728; none, tile 4, cpu, run natively): a
   parallel loop of stride 2 over an empty range (i = 5 .. m + 1, m = 3)
   inside a time loop ran one iteration. emit's static share of the trip
   count (in the time loop's team of threads) computed (hi - lo) / 2 + 1
   with a division that truncates towards zero: 1. */
void strided(int m, int T, double A[m + 4][m + 4], double C[m + 4][m + 4])
{
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 3; i < m + 2; i += 2)
      for (j = 2; j <= i && j < m + 2; j++)
        if (i > 3)
          A[i][j] = 0.2 * (C[j + 1][i - 1] + C[(i + 1) / 2 + 1][j + 1]);
#pragma endscop
}
