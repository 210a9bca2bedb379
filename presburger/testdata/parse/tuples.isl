{ S[i, 2i, 0, floor(i/2), j = i + 1, i]; S2[] ; [] }
