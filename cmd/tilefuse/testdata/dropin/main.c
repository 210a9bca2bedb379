/* The program of the drop-in test: initialises, calls smooth (defined in
   kernel.c, or replaced by tilefuse's object) and prints every result bit
   for bit. */
#include <stdio.h>

void smooth(int n, int m, double alpha, double A[64][80], double B[64][80], double s[64]);

static double A[64][80], B[64][80], s[64];

int main(void)
{
  int n = 60, m = 75;
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 80; j++)
      A[i][j] = (double)((i * 37 + j * 11) % 101) / 7.0;
  smooth(n, m, 0.2, A, B, s);
  for (int i = 0; i < 64; i++) {
    printf("s[%d] = %a\n", i, s[i]);
    for (int j = 0; j < 80; j++)
      printf("%a%c", B[i][j], j == 79 ? '\n' : ' ');
  }
  return 0;
}
