// parallel
#pragma omp parallel for
for (int c0 = 0; c0 <= floord(N - 1, 16); c0 += 1)
  for (int c1 = 0; c1 <= floord(N - 1, 16); c1 += 1)
    for (int c2 = 16 * c0; c2 <= min(N - 1, 16 * c0 + 15); c2 += 1)
      for (int c3 = 16 * c1; c3 <= min(N - 1, 16 * c1 + 15); c3 += 1)
        S(c2, c3);
