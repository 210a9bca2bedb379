void f(int n, float in[n], float out[n]) {
  float a[n];
  float acc[n];
  for (int i = 0; i < n; i++)
    a[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    acc[i] = acc[i] + a[i];
  for (int i = 0; i < n; i++)
    out[i] = acc[i];
}
