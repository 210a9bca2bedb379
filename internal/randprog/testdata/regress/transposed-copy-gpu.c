/* regress: n=7 */
/* Campaign seed 41716: post (and auto, tiles given) on cuda-emulate read
   the transposed copy A_t outside its tile-local buffer (A_t[4][4] of a
   box [5 3] at origin [4 6]); the CPU was right. The GPU mapping's
   wavefront over the tiles renumbered the prefix schedule under the
   buffer's origin and extension (minimized: transposed-copy-wavefront.c);
   fixed in gpumap, and transposed copies are made for the GPU again. */
/* combos: strategy post, tile 4, target cuda-emulate */
/* combos: strategy post, tile 3,5, target cuda-emulate */
/* combos: strategy auto, tile 4 separate, target cuda-emulate */
/* combos: strategy post, tile 4, target cpu */
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))
void rp41716(int n, double A[n + 4][n + 4], double B[n + 4], double C[n + 4][n + 4])
{
  int i, j, k;
#pragma scop
  for (i = 3; i < n + 2; i++)
    for (j = max(2, i - 1); j < min(i + 2, n + 2); j++)
      for (k = j; k < n + 2; k++)
        if (j > 3)
          B[i - 1] += 0.5 * (B[i + 1] + A[i][j - 1]) + 0.01 * j;
  for (i = 2; i < n + 2; i++)
    for (j = 2; j < min(i + 2, n + 2); j++)
      for (k = 2; k < min(i + 2, n + 2); k++)
        C[i][j] *= 1.0 + 0.001 * C[i][k];
#pragma endscop
}
