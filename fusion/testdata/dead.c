void dead(int n, float in[2 * n], float out[n]) {
  float t[2 * n];
  for (int i = 0; i < 2 * n; i++)
    t[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    out[i] = t[i] + t[i];
}
