/* N comes from the command line: -DN=100. */
#include <math.h>

void scale(double A[100], double x)
{
  int i;
  for (i = 0; i < N; i++)
    A[i] = A[i] * x;
}
