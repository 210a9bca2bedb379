; saxpy.c written by hand in LLVM 14 IR: y[i] = a * x[i] + y[i].

define void @saxpy(i32 %n, float %a, float* noalias %x, float* noalias %y) {
entry:
  %n64 = sext i32 %n to i64
  br label %head

head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %n64
  br i1 %ok, label %body, label %exit

body:
  %px = getelementptr inbounds float, float* %x, i64 %i
  %xv = load float, float* %px
  %py = getelementptr inbounds float, float* %y, i64 %i
  %yv = load float, float* %py
  %m = fmul float %a, %xv
  %s = fadd float %m, %yv
  store float %s, float* %py
  %i.next = add i64 %i, 1
  br label %head

exit:
  ret void
}
