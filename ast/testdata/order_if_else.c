for (int c0 = 0; c0 < N; c0 += 1) {
  U(c0);
  if (c0 >= 1) {
    S(c0);
  } else {
    T(0);
  }
}
