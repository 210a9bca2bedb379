void hist(int n, int m, float in[8 * n][8 * m], float out[n][m]) {
  float sq[8 * n][8 * m];
  for (int i = 0; i < 8 * n; i++)
    for (int j = 0; j < 8 * m; j++)
      sq[i][j] = in[i][j] * in[i][j];
  for (int i = 0; i < 8 * n; i++)
    for (int j = 0; j < 8 * m; j++)
      out[i / 8][j / 8] += sq[i][j];
}
