for (int c0 = 0; c0 <= min(N - 1, M + 2); c0 += 1)
  for (int c1 = max(c0 - 3, 0); c1 <= min(c0 + 3, M - 1); c1 += 1)
    S(c0, c1);
