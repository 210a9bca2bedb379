for (int c0 = 0; c0 < N; c0 += 1)
  S(c0);
for (int c0 = N; c0 < 2 * N; c0 += 1)
  T(c0 - N);
