[N, M] -> {  : N >= 0 and exists e : N = 2e + M }
