for (int c0 = 0; c0 <= floord(N - 1, 4); c0 += 1)
  for (int c1 = 0; c1 <= min(N - 4 * c0 - 1, 3); c1 += 1)
    S(4 * c0 + c1);
