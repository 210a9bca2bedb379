{ [i, j] : (i + j) mod 2 = 0 and i % 3 != 1 and floord(j, 4) >= ceild(i - 1, 2) and -i mod 5 = 2 }
