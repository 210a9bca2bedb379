#include <stdio.h>
#include "not_here.h"

void scale(int n, double A[100])
{
  int i;
  for (i = 0; i < n; i++)
    A[i] = A[i] * 2;
}
