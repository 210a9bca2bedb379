{ S[i, j : i > 0 }
