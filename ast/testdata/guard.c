for (int c0 = 0; c0 < N; c0 += 1)
  if (c0 < N - 5)
    for (int c1 = 0; c1 < N; c1 += 1)
      S(c0, c1);
