void chain(int n, double A[n + 1])
{
  for (int i = 0; i < n; i++)
    A[i + 1] = A[i] * 0.5;
}
