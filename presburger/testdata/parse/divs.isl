[N] -> { S[i, j] : 0 <= i < N and 0 <= j <= i and exists (e0 = floor((i)/2), e1 = floor((-1 + j)/3): i = 2e0 and j >= 3e1 + 1) }
