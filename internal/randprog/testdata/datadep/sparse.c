/* A sparse update in the style of a CSR matrix-vector product over
   fixed-length rows: y[i] += val[i][k] * x[col[i][k]], and a clamp
   through a data-dependent condition on a local intermediate. */
void sparse(int n, double val[n + 16][4], int col[n + 16][4], double x[n + 16], double y[n + 16])
{
  int i, k;
  double tmp[n + 16];
#pragma scop
  for (i = 0; i < n; i++) {
    tmp[i] = 0.0;
    for (k = 0; k < 4; k++)
      tmp[i] += val[i][k] * x[col[i][k]];
  }
  for (i = 0; i < n; i++) {
    if (tmp[i] > 8.0)
      tmp[i] = 8.0;
  }
  for (i = 1; i < n; i++)
    y[i] = tmp[i] + tmp[i - 1];
#pragma endscop
}
