void overlap(int n, float in[n + 1], float lo[n], float hi[n]) {
  float t[n + 1];
  for (int i = 0; i <= n; i++)
    t[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    lo[i] = t[i] + 1;
  for (int i = 0; i < n; i++)
    hi[i] = t[i + 1] + 1;
}
