void chain(int n, float in[n + 6], float out[n]) {
  float a[n + 4];
  float b[n + 2];
  for (int i = 0; i < n + 4; i++)
    a[i] = in[i] + in[i + 1] + in[i + 2];
  for (int i = 0; i < n + 2; i++)
    b[i] = a[i] + a[i + 1] + a[i + 2];
  for (int i = 0; i < n; i++)
    out[i] = b[i] + b[i + 1] + b[i + 2];
}
