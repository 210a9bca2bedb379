void ring(int n, float in[n + 4], float out[n]) {
  float a[n + 4];
  float b[n + 2];
  a[0] = 0;
  for (int i = 1; i < n + 3; i++)
    a[i] = in[i - 1] + in[i] + in[i + 1];
  a[n + 3] = 0;
  b[0] = 0;
  for (int i = 1; i < n + 1; i++)
    b[i] = a[i - 1] + a[i] + a[i + 1];
  b[n + 1] = 0;
  for (int i = 0; i < n; i++)
    out[i] = b[i + 1] * 2;
}
