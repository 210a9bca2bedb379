/* Conditions: else chains, % and C division of negative values, ! and
   comparisons used as numbers. */
void cond(int n, double A[64], int D[64])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    if (i % 3 == 0 && i > 2)
      A[i] = 1.0;
    else if (!(i >= 5) || i == n - 1)
      A[i] = A[i] + 2.0;
    else
      A[i] *= 3.0;
    if ((i - 7) / 3 == 0)
      D[i] = D[i] + 100;
    if ((i - 7) % 3 == -1)
      D[i] -= 7;
    if (i / -2 == -1 || (i < 4 ? i : 4) == 3)
      D[i] *= 2;
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if (i + j < n && (i > j) + (i == 2) == 1)
        A[j] += i;
#pragma endscop
}
