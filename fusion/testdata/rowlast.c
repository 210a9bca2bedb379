void rowlast(int n, int m, float in[n][m], float out[n][m]) {
  float q[n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      q[i] = in[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[i][j] = 2 * q[i] + in[i][j];
}
