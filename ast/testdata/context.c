for (int c0 = 0; c0 < N; c0 += 1)
  for (int c1 = 0; c1 <= 9; c1 += 1)
    S(c0, c1);
