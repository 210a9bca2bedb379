# A tiled stencil domain and its access map, as isl prints them.
[N, T] -> { S[t, i] -> A[t + 1, i] : 0 <= t < T and 1 <= i <= N - 2;
            S[t, i] -> A[t, i'] : 0 <= t < T and 1 <= i <= N - 2 and i - 1 <= i' <= i + 1 }
