/* A float scalar passed by value and an array updated in place: the
   harness must pass a as a float and restore y before every call. */
void saxpy(int n, float a, float x[4096], float y[4096])
{
  int i;
  for (i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
