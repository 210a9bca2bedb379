for (int c0 = 1; c0 < N; c0 += 1)
  for (int c1 = 0; c1 < c0; c1 += 1)
    S(c0, c1);
