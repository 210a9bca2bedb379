void shared(int n, float in[2 * n], float lo[n], float hi[n]) {
  float t[2 * n];
  for (int i = 0; i < 2 * n; i++)
    t[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    lo[i] = t[i] + 1;
  for (int i = 0; i < n; i++)
    hi[i] = t[n + i] + 1;
}
