/* While loops with a data-dependent exit: the length of each row's
   leading run below a threshold, a countdown stepped by two that a
   running value stops (a condition
   dividing the counter), and a while nested in a while whose inner
   counter starts at the outer one's value. */
void whiles(int n, double A[n + 16][n + 16], double B[n + 16], int len[n + 16], double C[n + 16][n + 16])
{
  int i, k, m, p, q;
#pragma scop
  for (i = 0; i < n; i++) {
    k = 0;
    while (k < n && A[i][k] < 3.0) {
      C[i][k] = A[i][k] * 0.5;
      k++;
    }
    len[i] = k;
  }
  for (i = 0; i < n; i++) {
    m = 0;
    k = n - 1;
    while (B[i] > 0.5 && k >= i) {
      B[i] = B[i] - A[k][i] * 0.25;
      if (B[i] < 1.0)
        C[k][i] += 1.0;
      if (A[k / 2][i] > 2.0)
        C[i][k] -= 0.5;
      m += 2;
      k--;
    }
    len[i] += m;
  }
  p = 0;
  while (p < n && B[p] < 3.5) {
    q = p;
    while (q < n && A[p][q] > 0.5) {
      C[p][q] = C[p][q] + B[p];
      q++;
    }
    B[p] += 1.0;
    p++;
  }
#pragma endscop
}
