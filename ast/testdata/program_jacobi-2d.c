#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static inline int floord(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int ceild(int a, int b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }
static inline int floormod(int a, int b) { int r = a % b; return r < 0 ? r + b : r; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline int64_t tf_floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q; }
static inline int64_t tf_mod(int64_t a, int64_t b) { int64_t m = a % b; return (m != 0 && (m < 0) != (b < 0)) ? m + b : m; }

void kernel(int tsteps, int n, double A[1300][1300], double B[1300][1300])
{
  for (int c0 = 0; c0 < tsteps; c0 += 1) {
    for (int c1 = 1; c1 < n - 1; c1 += 1)
      for (int c2 = 1; c2 < n - 1; c2 += 1)
        B[c1][c2] = (0.2 * ((((A[c1][c2] + A[c1][(c2 - 1)]) + A[c1][(1 + c2)]) + A[(1 + c1)][c2]) + A[(c1 - 1)][c2]));
    for (int c1 = 1; c1 < n - 1; c1 += 1)
      for (int c2 = 1; c2 < n - 1; c2 += 1)
        A[c1][c2] = (0.2 * ((((B[c1][c2] + B[c1][(c2 - 1)]) + B[c1][(1 + c2)]) + B[(1 + c1)][c2]) + B[(c1 - 1)][c2]));
  }
}
