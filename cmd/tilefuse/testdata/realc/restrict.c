/* A restrict pointer, a pointer to rows and a final return. */
#include <stdlib.h>

#define M 64

void smooth(int n, double *restrict out, const double (*restrict in)[M])
{
#pragma tilefuse array out[n], in[n + 2][M]
  for (int i = 0; i < n; i++) {
    out[i] = 0;
    for (int j = 0; j < M; j++)
      out[i] += in[i][j] + in[i + 2][j];
  }
  return;
}

int main(void)
{
  double *out = malloc(10 * sizeof *out);
  double (*in)[M] = calloc(12, sizeof *in);
  smooth(10, out, (const double (*)[M])in);
  free(in);
  free(out);
  return 0;
}
