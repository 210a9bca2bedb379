void liveout(int n, float in[n + 2], float mid[n + 2], float out[n]) {
  for (int i = 0; i < n + 2; i++)
    mid[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    out[i] = mid[i] + mid[i + 1] + mid[i + 2];
}
