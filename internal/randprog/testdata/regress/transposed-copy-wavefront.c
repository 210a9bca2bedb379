/* regress: n=7 */
/* Campaign seed 41716, minimized (transposed-copy-gpu.c is the program
   found). The tile band over i and j carries B's dependence in both
   members, so the GPU mapping runs it as a wavefront: the host loop c0 is
   the tiles' i + j and the blocks' c1 their j. The transposed copy A_t
   is fused into the tiles with a tile-local buffer whose origin, and the
   extension that copies into it, were stated in the tile coordinates
   before the wavefront: they read c0 as the tile's i, so the copy filled
   the wrong rows and S0 read A_t outside its buffer. gpumap now rewrites
   the extensions and guards below a wavefront (and a strip-mined block
   band) and says how the promote marks' prefixes changed
   (gpumap.Mapping.Prefix), from which the buffer origins are restated. */
/* combos: strategy post, tile 4, target cuda-emulate */
/* combos: strategy post, tile 3,5, target cuda-emulate */
/* combos: strategy auto, tile 4 separate, target cuda-emulate */
/* combos: strategy post, tile 4, target cpu */
void rpwave(int n, double A[n + 4][n + 4], double B[n + 4])
{
  int i, j, k;
#pragma scop
  for (i = 3; i < n + 2; i++)
    for (j = i - 1; j < i + 2; j++)
      for (k = j; k < n + 2; k++)
        B[i - 1] += B[i + 1] + A[i][j - 1];
#pragma endscop
}
