S();
for (int c0 = 0; c0 < N; c0 += 1)
  T(c0);
