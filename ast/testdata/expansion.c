for (int c0 = 0; c0 < N; c0 += 1)
  for (int c1 = 2 * c0; c1 <= 2 * c0 + 1; c1 += 1)
    S(c1);
