/* regress: n=6 T=1 */
/* Campaign seed 106034 (max, untiled, cuda-emulate with 4x2 threads and
   2x2 blocks; wrong natively, right in the AST interpreter): the kernel's
   block band (the wavefront's inner member, over blocks of 4) runs a
   sequence of two loops, S0's then S1's, and S1(0, 3) must come after
   S0(4, 4) at the same band value (S0 reads B[3] before S1 writes it).
   Each mapped loop counted its blocks from its own lower bound, so the
   value 1 went to block 1 in S0's loop and to block 0 in S1's, and block
   0 ran first. A value now goes to block floor(v/stride) mod the blocks
   in every loop (emit's mappedLoop), threads alike. */
/* combos: strategy max, untiled, target cuda-emulate (threads */
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))
void rp106034(int n, int T, double A[n + 4][n + 4], double B[n + 4])
{
  int i, j, t;
#pragma scop
  for (i = n + 1; i >= 2; i--)
    for (j = i; j < n + 2; j++)
      A[i][j] = (i % 2 == 0 ? 0.5 : -0.25) * B[j - 1] + 0.3 * (B[j - 1] + A[j + 1][i / 2]);
  for (t = 0; t < T; t++) {
    for (i = 2; i < n + 2; i++)
      B[i] = 0.33 * (B[i - 1] + B[i - 1] + B[i + 1]);
  }
#pragma endscop
}
