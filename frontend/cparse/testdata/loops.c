/* Loop shapes: strides, decreasing loops, bounds with C division of
   negative values, ternaries, and Pluto's floord, ceild, min and max
   (macros for gcc; the parser skips #define and reads them as calls). */
#define floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#define ceild(n, d) (((n) < 0) ? -((-(n)) / (d)) : ((n) + (d) - 1) / (d))
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))

void loops(int n, int m, double A[64], double B[64][64], int C[64])
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i += 3)
    A[i] = A[i - 1] + 1.0;
  for (i = n; i > 0; i -= 2)
    A[i] = A[i] * 0.5 + A[i - 1];
  for (i = n - 1; i >= 0; i--)
    for (j = i; j <= n - 1; j = j + 4)
      B[i][j] = B[i][j] + B[j][i] * 2.0;
  for (i = -9; i <= (n - 12) / 4; i++)
    C[i + 9] = C[i + 9] * 3 + i;
  for (i = -9; i < 9; i++)
    C[i + 29] += (i / 4) * 10 + i % 4;
  for (i = max(0, n - 10); i <= min(n, m); i++)
    for (j = (i < 5 ? i : 5); j < (n > m ? n : m) && j < 2 * i; j++)
      B[i][j] -= 1.0;
  for (i = ceild(n - 20, 4); i <= floord(n + 3, 3); i++)
    A[i + 10] = A[i + 10] * 2.0 + i;
  for (int k = 0; k < n; k++)
    A[k / 2 + 40] = A[k / 2 + 40] + A[(k + 1) % 3];
#pragma endscop
}
