for (int c0 = 0; c0 <= max(0, N - 1); c0 += 1) {
  if (c0 < N)
    T(c0);
  if (c0 == 0)
    S();
}
