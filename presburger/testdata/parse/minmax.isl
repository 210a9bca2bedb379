[N, M] -> { [i] -> [min(i, N), max(i - 1, 0, M)] : 0 <= i, M <= 2N }
