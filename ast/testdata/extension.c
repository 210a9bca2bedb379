for (int c0 = 0; c0 <= floord(N - 1, 32); c0 += 1) {
  for (int c1 = 32 * c0; c1 <= min(32 * c0 + 32, N); c1 += 1)
    S(c1);
  for (int c1 = 32 * c0; c1 <= min(N - 1, 32 * c0 + 31); c1 += 1)
    T(c1);
}
