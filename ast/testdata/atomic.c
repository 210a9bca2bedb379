for (int c0 = 0; c0 < 2 * N; c0 += 1)
  if (c0 < N) {
    S(c0);
  } else {
    T(c0 - N);
  }
