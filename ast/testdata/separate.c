for (int c0 = 0; c0 <= floord(N - 32, 32); c0 += 1) {
  for (int c1 = 0; c1 <= floord(N - 32, 32); c1 += 1)
    for (int c2 = 32 * c0; c2 <= 32 * c0 + 31; c2 += 1)
      for (int c3 = 32 * c1; c3 <= 32 * c1 + 31; c3 += 1)
        S(c2, c3);
  if (floormod(N - 1, 32) <= 30)
    for (int c1 = ceild(N - 31, 32); c1 <= floord(N - 1, 32); c1 += 1)
      for (int c2 = 32 * c0; c2 <= 32 * c0 + 31; c2 += 1)
        for (int c3 = 32 * c1; c3 < N; c3 += 1)
          S(c2, c3);
}
if (floord(N - 1, 32) >= 0 && floormod(N - 1, 32) <= 30)
  for (int c0 = max(0, ceild(N - 31, 32)); c0 <= floord(N - 1, 32); c0 += 1)
    for (int c1 = 0; c1 <= floord(N - 1, 32); c1 += 1)
      for (int c2 = 32 * c0; c2 < N; c2 += 1)
        for (int c3 = 32 * c1; c3 <= min(N - 1, 32 * c1 + 31); c3 += 1)
          S(c2, c3);
