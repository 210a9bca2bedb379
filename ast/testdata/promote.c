for (int c0 = 0; c0 <= floord(N - 1, 64); c0 += 1)
  // promote[A]
  {
    double (*A)[3] = malloc(sizeof(double) * (64) * (3));
    for (int c1 = 64 * c0; c1 <= min(N - 1, 64 * c0 + 63); c1 += 1)
      S(c1);
    free(A);
  }
