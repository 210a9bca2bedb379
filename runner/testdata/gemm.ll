; PolyBench gemm written by hand in LLVM 14 IR (typed pointers), with the
; signature ast.PrintProgram gives kernel_gemm: the runner's tests build it
; with opt and llc and check it against the reference executor.
;
;   for (i = 0; i < ni; i++) {
;     for (j = 0; j < nj; j++) C[i][j] *= beta;
;     for (k = 0; k < nk; k++)
;       for (j = 0; j < nj; j++) C[i][j] += alpha * A[i][k] * B[k][j];
;   }
;
; with C[1000][1100], A[1000][1200], B[1200][1100].

define void @kernel_gemm(i32 %ni, i32 %nj, i32 %nk, double %alpha, double %beta, double* noalias %C, double* noalias %A, double* noalias %B) {
entry:
  %ni64 = sext i32 %ni to i64
  %nj64 = sext i32 %nj to i64
  %nk64 = sext i32 %nk to i64
  br label %i.head

i.head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %i.latch ]
  %i.ok = icmp slt i64 %i, %ni64
  br i1 %i.ok, label %j1.head, label %exit

j1.head:
  %j1 = phi i64 [ 0, %i.head ], [ %j1.next, %j1.body ]
  %j1.ok = icmp slt i64 %j1, %nj64
  br i1 %j1.ok, label %j1.body, label %k.head

j1.body:
  %ci = mul i64 %i, 1100
  %cij = add i64 %ci, %j1
  %pc = getelementptr inbounds double, double* %C, i64 %cij
  %c = load double, double* %pc
  %cb = fmul double %c, %beta
  store double %cb, double* %pc
  %j1.next = add i64 %j1, 1
  br label %j1.head

k.head:
  %k = phi i64 [ 0, %j1.head ], [ %k.next, %k.latch ]
  %k.ok = icmp slt i64 %k, %nk64
  br i1 %k.ok, label %j2.head, label %i.latch

j2.head:
  %j2 = phi i64 [ 0, %k.head ], [ %j2.next, %j2.body ]
  %j2.ok = icmp slt i64 %j2, %nj64
  br i1 %j2.ok, label %j2.body, label %k.latch

j2.body:
  %ai = mul i64 %i, 1200
  %aik = add i64 %ai, %k
  %pa = getelementptr inbounds double, double* %A, i64 %aik
  %a = load double, double* %pa
  %bk = mul i64 %k, 1100
  %bkj = add i64 %bk, %j2
  %pb = getelementptr inbounds double, double* %B, i64 %bkj
  %b = load double, double* %pb
  %t1 = fmul double %alpha, %a
  %t2 = fmul double %t1, %b
  %ci2 = mul i64 %i, 1100
  %cij2 = add i64 %ci2, %j2
  %pc2 = getelementptr inbounds double, double* %C, i64 %cij2
  %c2 = load double, double* %pc2
  %s = fadd double %c2, %t2
  store double %s, double* %pc2
  %j2.next = add i64 %j2, 1
  br label %j2.head

k.latch:
  %k.next = add i64 %k, 1
  br label %k.head

i.latch:
  %i.next = add i64 %i, 1
  br label %i.head

exit:
  ret void
}
