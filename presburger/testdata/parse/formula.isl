{ [i, j] : not (i > j or i < 0) and (i >= 3 implies j <= 10) && !(j = 7) || (true and false) }
