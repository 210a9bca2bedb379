/* regress: n=5 */
/* Found by the campaign (seeds 100653 and 100756; post and auto): post-tiling
   fusion fused the update tmp0[i] += ... (a space of its own, reading the
   elements it writes, their values from the loop before) into the tiles of
   its consumer, where overlapping tiles applied it twice. The exact check
   refused the tree ("post-tiling fusion built an illegal tree"); now an
   update is never recomputed. */
void update(int n, double A[n + 4], double B[n + 4])
{
  int i;
  double tmp0[n + 4];
#pragma scop
  for (i = 0; i < n + 4; i++)
    tmp0[i] = 0.5 * A[i];
  for (i = 3; i < n + 2; i += 2)
    tmp0[i] += 0.25 * B[i] + 1.5;
  for (i = 2; i < n + 2; i++)
    A[i] = 0.25 * (tmp0[(i + 1) / 2 + 1] + A[i]);
#pragma endscop
}
