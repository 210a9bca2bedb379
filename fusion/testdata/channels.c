void channels(int h, int w, float in[3][h][w + 1], float out[3][h][w]) {
  float lum[h][w + 1];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w + 1; x++)
      lum[y][x] = in[0][y][x] + in[1][y][x] + in[2][y][x];
  for (int c = 0; c < 3; c++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        out[c][y][x] = (c + 1) * lum[y][x] + lum[y][x + 1];
}
