for (int c0 = 0; c0 < 2 * N; c0 += 1) {
  if (c0 < N)
    S(c0);
  if (c0 >= N)
    T(c0 - N);
}
