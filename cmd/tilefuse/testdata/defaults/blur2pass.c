/* A user's two-pass 3x3 box blur, horizontal then vertical, as issue 16
   describes it: under the old default (smart, untiled) it ran 14-19x
   slower than the original order at 3000 x 3000. */
void blur2pass(int n, int m, float in[3002][3002], float tmp[3002][3000], float out[3000][3000])
{
  for (int i = 0; i < n + 2; i++)
    for (int j = 0; j < m; j++)
      tmp[i][j] = (in[i][j] + in[i][j + 1] + in[i][j + 2]) / 3.0f;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[i][j] = (tmp[i][j] + tmp[i + 1][j] + tmp[i + 2][j]) / 3.0f;
}
