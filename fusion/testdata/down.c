void down(int n, float in[2 * n + 2], float out[n]) {
  float a[2 * n + 2];
  for (int j = 0; j < 2 * n + 2; j++)
    a[j] = in[j] * 2.0f;
  for (int i = 1; i < n; i++)
    out[i] = a[2 * i - 1] + a[2 * i] + a[2 * i + 1];
}
