for (int c0 = 0; c0 <= max(N - 1, M - 1); c0 += 1) {
  if (c0 < N) {
    S(c0);
    T(c0);
  }
  if (c0 < M)
    U(c0);
}
