void weights(int n, float in[n], float out[n]) {
  float w[3];
  for (int k = 0; k < 3; k++)
    w[k] = k + 1;
  for (int i = 0; i < n; i++)
    out[i] = w[0] * in[i] + w[1] + w[2];
}
