for (int c0 = 0; c0 <= floord(T - 1, 8); c0 += 1)
  for (int c1 = c0; c1 <= min(floord(T + N - 3, 8), c0 + floord(N + 5, 8)); c1 += 1)
    for (int c2 = max(8 * c0, 8 * c1 - N + 2); c2 <= min(min(T - 1, 8 * c0 + 7), 8 * c1 + 6); c2 += 1)
      for (int c3 = max(c2 + 1, 8 * c1); c3 <= min(c2 + N - 2, 8 * c1 + 7); c3 += 1)
        S(c2, c3 - c2);
