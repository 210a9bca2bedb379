/* Two functions: one program each. */
void scale(int n, double a, double X[n])
{
  for (int i = 0; i < n; i++)
    X[i] *= a;
}

void shift(int n, float Y[n + 1])
{
#pragma scop
  for (int i = n - 1; i >= 0; i--)
    Y[i + 1] = Y[i];
#pragma endscop
}
