/* Indirect subscripts: a scatter, a gather through the scattered array,
   a histogram over computed bins and a cumulative sum of it. */
void indirect(int n, int idx[n + 16], int bin[n + 16], double A[n + 16], double C[n + 16], int H[16], int cum[16], double G[n + 16])
{
  int i, b;
#pragma scop
  for (i = 0; i < n; i++)
    C[idx[i]] = A[i] + 1.0;
  for (i = 0; i < n; i++)
    G[i] = C[idx[i + 1]] * 0.5 + C[i];
  for (b = 0; b < 16; b++)
    H[b] = 0;
  for (i = 0; i < n; i++)
    H[bin[i]] += 1;
  for (i = 0; i < n; i++)
    H[(bin[i] + idx[i]) % 16]++;
  cum[0] = H[0];
  for (b = 1; b < 16; b++)
    cum[b] = cum[b - 1] + H[b];
#pragma endscop
}
