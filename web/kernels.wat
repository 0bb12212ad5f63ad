;; The training worker's kernels in WebAssembly SIMD.
;;
;; Go's WebAssembly port emits no SIMD, so the workers (wasm/worker) run
;; this module beside their Go code when the browser can: it works on the
;; Go program's own memory, which it imports, through the pointers Go
;; passes. Each export computes exactly what a loop of core computes, bit
;; for bit: every lane does the scalar code's IEEE operations in the same
;; order, and $exp repeats core/internal/fmath.Exp operation by operation.
;;
;;   grad    core/softmax.Grad for float32 (minibatch SGD, full-batch shards)
;;   update  core/softmax.Update (the step θ := θ − α(g/n + λθ))
;;   eval    core/metrics.EvaluateRange for float32 (test-set evaluation)
;;   neval   core/newton's evalRange on float32 pixels (∇J, diag H, μ)
;;   hv      core/newton's hvRange on float32 pixels (H·v)
;;   add32, add64  core/shard.Add32 and Add64 (the shards' sums)
;;
;; The worker checks every kernel on every start against the Go code and
;; uses the Go code for any that ever differs; wasm/worker's tests check
;; them under Node on random and adversarial inputs.
;;
;; Layout (see core/softmax): weights are rows×10, a pixel's ten weights
;; adjacent. A float32 row is three vectors: classes 0-3, 4-7 and 8-9 (the
;; last loaded and stored as 64 bits); a float64 row is five, two classes
;; each. grad, neval and hv take their examples as core/softmax.Blocks,
;; the pixels cut into pairs of neighbours (j, j+1) and singles: a pair's
;; two rows, twenty adjacent numbers, are five float32 vectors (the third
;; holds classes 8-9 of row j and 0-1 of row j+1) or ten float64 ones.
;; Within a call, nothing is read back from memory that the same example
;; just wrote wider or narrower: lanes stay in registers (a narrow load of
;; a wide store, or the reverse, stalls some CPUs for tens of cycles).
(module
  (import "env" "mem" (memory 0))

  ;; touched keeps what grad reads ahead, so that no engine drops the reads.
  (global $touched (mut i32) (i32.const 0))

  ;; exp is fmath.Exp: e**x, +Inf above 709.78, 0 below -708.40.
  (func $exp (param $x f64) (result f64)
    (local $k i64) (local $hi f64) (local $lo f64) (local $r f64)
    (local $t f64) (local $c f64) (local $y f64)
    (if (f64.ne (local.get $x) (local.get $x)) (then (return (local.get $x))))
    (if (f64.gt (local.get $x) (f64.const 7.09782712893383973096e+02))
      (then (return (f64.const inf))))
    (if (f64.lt (local.get $x) (f64.const -7.08396418532264106224e+02))
      (then (return (f64.const 0))))
    (if (f64.lt (local.get $x) (f64.const 0))
      (then (local.set $k (i64.trunc_sat_f64_s
        (f64.sub (f64.mul (f64.const 1.44269504088896338700e+00) (local.get $x)) (f64.const 0.5)))))
      (else (local.set $k (i64.trunc_sat_f64_s
        (f64.add (f64.mul (f64.const 1.44269504088896338700e+00) (local.get $x)) (f64.const 0.5))))))
    (local.set $hi (f64.sub (local.get $x)
      (f64.mul (f64.convert_i64_s (local.get $k)) (f64.const 6.93147180369123816490e-01))))
    (local.set $lo (f64.mul (f64.convert_i64_s (local.get $k)) (f64.const 1.90821492927058770002e-10)))
    (local.set $r (f64.sub (local.get $hi) (local.get $lo)))
    (local.set $t (f64.mul (local.get $r) (local.get $r)))
    (local.set $c (f64.sub (local.get $r)
      (f64.mul (local.get $t)
        (f64.add (f64.const 1.66666666666666657415e-01)
          (f64.mul (local.get $t)
            (f64.add (f64.const -2.77777777770155933842e-03)
              (f64.mul (local.get $t)
                (f64.add (f64.const 6.61375632143793436117e-05)
                  (f64.mul (local.get $t)
                    (f64.add (f64.const -1.65339022054652515390e-06)
                      (f64.mul (local.get $t) (f64.const 4.13813679705723846039e-08))))))))))))
    (local.set $y (f64.sub (f64.const 1)
      (f64.sub
        (f64.sub (local.get $lo)
          (f64.div (f64.mul (local.get $r) (local.get $c)) (f64.sub (f64.const 2) (local.get $c))))
        (local.get $hi))))
    (if (i64.lt_s (local.get $k) (i64.const -1021))
      (then (return (f64.mul
        (f64.mul (local.get $y) (call $pow2 (i64.add (local.get $k) (i64.const 54))))
        (f64.const 0x1p-54)))))
    (if (i64.gt_s (local.get $k) (i64.const 1023))
      (then (return (f64.mul
        (f64.mul (local.get $y) (f64.const 2))
        (call $pow2 (i64.sub (local.get $k) (i64.const 1)))))))
    (f64.mul (local.get $y) (call $pow2 (local.get $k))))

  ;; pow2 is 2**k for -1022 <= k <= 1023.
  (func $pow2 (param $k i64) (result f64)
    (f64.reinterpret_i64 (i64.shl (i64.add (local.get $k) (i64.const 1023)) (i64.const 52))))

  ;; log is fmath.Log for the sums of exponentials softmax takes it of:
  ;; for a normal x > 0 (they are 1 to 10) the same operations, math.Frexp
  ;; done on the bits; NaN, +Inf and anything else not normal and positive
  ;; give NaN (the loss is then not finite, whatever its bits).
  (func $log (param $x f64) (result f64)
    (local $b i64) (local $e i64) (local $f1 f64) (local $f f64) (local $k f64)
    (local $s f64) (local $s2 f64) (local $s4 f64) (local $r f64) (local $hfsq f64)
    (local.set $b (i64.reinterpret_f64 (local.get $x)))
    (local.set $e (i64.and (i64.shr_u (local.get $b) (i64.const 52)) (i64.const 0x7ff)))
    (if (i32.or (i64.lt_s (local.get $b) (i64.const 0))
          (i32.or (i64.eqz (local.get $e)) (i64.eq (local.get $e) (i64.const 0x7ff))))
      (then (return (f64.const nan))))
    ;; frexp: x = f1·2^k, f1 in [0.5, 1)
    (local.set $f1 (f64.reinterpret_i64 (i64.or
      (i64.and (local.get $b) (i64.const 0x800fffffffffffff)) (i64.const 0x3fe0000000000000))))
    (local.set $e (i64.sub (local.get $e) (i64.const 1022)))
    (if (f64.lt (local.get $f1) (f64.const 0.7071067811865476))
      (then
        (local.set $f1 (f64.mul (local.get $f1) (f64.const 2)))
        (local.set $e (i64.sub (local.get $e) (i64.const 1)))))
    (local.set $f (f64.sub (local.get $f1) (f64.const 1)))
    (local.set $k (f64.convert_i64_s (local.get $e)))
    (local.set $s (f64.div (local.get $f) (f64.add (f64.const 2) (local.get $f))))
    (local.set $s2 (f64.mul (local.get $s) (local.get $s)))
    (local.set $s4 (f64.mul (local.get $s2) (local.get $s2)))
    (local.set $r (f64.add
      (f64.mul (local.get $s2) (f64.add (f64.const 6.666666666666735130e-01)
        (f64.mul (local.get $s4) (f64.add (f64.const 2.857142874366239149e-01)
          (f64.mul (local.get $s4) (f64.add (f64.const 1.818357216161805012e-01)
            (f64.mul (local.get $s4) (f64.const 1.479819860511658591e-01))))))))
      (f64.mul (local.get $s4) (f64.add (f64.const 3.999999999940941908e-01)
        (f64.mul (local.get $s4) (f64.add (f64.const 2.222219843214978396e-01)
          (f64.mul (local.get $s4) (f64.const 1.531383769920937332e-01))))))))
    (local.set $hfsq (f64.mul (f64.const 0.5) (f64.mul (local.get $f) (local.get $f))))
    (f64.sub (f64.mul (local.get $k) (f64.const 6.93147180369123816490e-01))
      (f64.sub
        (f64.sub (local.get $hfsq)
          (f64.add (f64.mul (local.get $s) (f64.add (local.get $hfsq) (local.get $r)))
            (f64.mul (local.get $k) (f64.const 1.90821492927058770002e-10))))
        (local.get $f))))

;; exp2 is $exp on both lanes of an f64x2, for arguments at most 0 (z − max
  ;; z): the same operations as $exp, lane by lane, so the same bits. A lane
  ;; below −707, where $exp scales in two steps or returns 0, or NaN, sends
  ;; both lanes through $exp.
  (func $exp2 (param $x v128) (result v128)
    (local $k v128) (local $kf v128) (local $hi v128) (local $lo v128) (local $r v128)
    (local $t v128) (local $c v128) (local $y v128)
    (if (i32.eqz (i64x2.all_true (f64x2.ge (local.get $x) (v128.const f64x2 -707 -707))))
      (then (return (f64x2.replace_lane 1
        (f64x2.splat (call $exp (f64x2.extract_lane 0 (local.get $x))))
        (call $exp (f64x2.extract_lane 1 (local.get $x)))))))
    (local.set $t (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x)))
    (local.set $k (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x) (v128.const f64x2 0 0)))))
    (local.set $kf (f64x2.convert_low_i32x4_s (local.get $k)))
    (local.set $hi (f64x2.sub (local.get $x)
      (f64x2.mul (local.get $kf) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $lo (f64x2.mul (local.get $kf) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $r (f64x2.sub (local.get $hi) (local.get $lo)))
    (local.set $t (f64x2.mul (local.get $r) (local.get $r)))
    (local.set $c (f64x2.sub (local.get $r)
      (f64x2.mul (local.get $t)
        (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01)
          (f64x2.mul (local.get $t)
            (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03)
              (f64x2.mul (local.get $t)
                (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05)
                  (f64x2.mul (local.get $t)
                    (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06)
                      (f64x2.mul (local.get $t) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08))))))))))))
    (local.set $y (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo)
          (f64x2.div (f64x2.mul (local.get $r) (local.get $c)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c))))
        (local.get $hi))))
    (f64x2.mul (local.get $y)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k)) (v128.const i64x2 1023 1023)) (i32.const 52))))

  ;; exp10 is $exp2 of five vectors, the ten exponentials of one example:
  ;; the same operations on every lane, so the same bits, written out side
  ;; by side. One call of $exp2 is a chain of some fifty dependent
  ;; operations, and five calls in a row left the CPU waiting on each;
  ;; five chains at once keep it busy. Should a lane be below −707 or NaN,
  ;; all five go through $exp2.
  (func $exp10 (param $x0 v128) (param $x1 v128) (param $x2 v128) (param $x3 v128) (param $x4 v128)
    (result v128 v128 v128 v128 v128)
    (local $k0 v128) (local $k1 v128) (local $k2 v128) (local $k3 v128) (local $k4 v128)
    (local $kf0 v128) (local $kf1 v128) (local $kf2 v128) (local $kf3 v128) (local $kf4 v128)
    (local $hi0 v128) (local $hi1 v128) (local $hi2 v128) (local $hi3 v128) (local $hi4 v128)
    (local $lo0 v128) (local $lo1 v128) (local $lo2 v128) (local $lo3 v128) (local $lo4 v128)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128) (local $r4 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128) (local $t4 v128)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128) (local $c4 v128)
    (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128) (local $y4 v128)
    (if (i32.eqz (i64x2.all_true (v128.and (v128.and (v128.and (v128.and
          (f64x2.ge (local.get $x0) (v128.const f64x2 -707 -707))
          (f64x2.ge (local.get $x1) (v128.const f64x2 -707 -707)))
          (f64x2.ge (local.get $x2) (v128.const f64x2 -707 -707)))
          (f64x2.ge (local.get $x3) (v128.const f64x2 -707 -707)))
          (f64x2.ge (local.get $x4) (v128.const f64x2 -707 -707)))))
      (then (return (call $exp2 (local.get $x0)) (call $exp2 (local.get $x1)) (call $exp2 (local.get $x2))
        (call $exp2 (local.get $x3)) (call $exp2 (local.get $x4)))))
    (local.set $t0 (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x0)))
    (local.set $t1 (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x1)))
    (local.set $t2 (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x2)))
    (local.set $t3 (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x3)))
    (local.set $t4 (f64x2.mul (v128.const f64x2 1.44269504088896338700e+00 1.44269504088896338700e+00) (local.get $x4)))
    (local.set $k0 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t0) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t0) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x0) (v128.const f64x2 0 0)))))
    (local.set $k1 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t1) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t1) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x1) (v128.const f64x2 0 0)))))
    (local.set $k2 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t2) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t2) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x2) (v128.const f64x2 0 0)))))
    (local.set $k3 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t3) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t3) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x3) (v128.const f64x2 0 0)))))
    (local.set $k4 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect
      (f64x2.sub (local.get $t4) (v128.const f64x2 0.5 0.5))
      (f64x2.add (local.get $t4) (v128.const f64x2 0.5 0.5))
      (f64x2.lt (local.get $x4) (v128.const f64x2 0 0)))))
    (local.set $kf0 (f64x2.convert_low_i32x4_s (local.get $k0)))
    (local.set $kf1 (f64x2.convert_low_i32x4_s (local.get $k1)))
    (local.set $kf2 (f64x2.convert_low_i32x4_s (local.get $k2)))
    (local.set $kf3 (f64x2.convert_low_i32x4_s (local.get $k3)))
    (local.set $kf4 (f64x2.convert_low_i32x4_s (local.get $k4)))
    (local.set $hi0 (f64x2.sub (local.get $x0)
      (f64x2.mul (local.get $kf0) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $hi1 (f64x2.sub (local.get $x1)
      (f64x2.mul (local.get $kf1) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $hi2 (f64x2.sub (local.get $x2)
      (f64x2.mul (local.get $kf2) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $hi3 (f64x2.sub (local.get $x3)
      (f64x2.mul (local.get $kf3) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $hi4 (f64x2.sub (local.get $x4)
      (f64x2.mul (local.get $kf4) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))))
    (local.set $lo0 (f64x2.mul (local.get $kf0) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $lo1 (f64x2.mul (local.get $kf1) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $lo2 (f64x2.mul (local.get $kf2) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $lo3 (f64x2.mul (local.get $kf3) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $lo4 (f64x2.mul (local.get $kf4) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))
    (local.set $r0 (f64x2.sub (local.get $hi0) (local.get $lo0)))
    (local.set $r1 (f64x2.sub (local.get $hi1) (local.get $lo1)))
    (local.set $r2 (f64x2.sub (local.get $hi2) (local.get $lo2)))
    (local.set $r3 (f64x2.sub (local.get $hi3) (local.get $lo3)))
    (local.set $r4 (f64x2.sub (local.get $hi4) (local.get $lo4)))
    (local.set $t0 (f64x2.mul (local.get $r0) (local.get $r0)))
    (local.set $t1 (f64x2.mul (local.get $r1) (local.get $r1)))
    (local.set $t2 (f64x2.mul (local.get $r2) (local.get $r2)))
    (local.set $t3 (f64x2.mul (local.get $r3) (local.get $r3)))
    (local.set $t4 (f64x2.mul (local.get $r4) (local.get $r4)))
    (local.set $c0 (f64x2.mul (local.get $t0) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08)))
    (local.set $c1 (f64x2.mul (local.get $t1) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08)))
    (local.set $c2 (f64x2.mul (local.get $t2) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08)))
    (local.set $c3 (f64x2.mul (local.get $t3) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08)))
    (local.set $c4 (f64x2.mul (local.get $t4) (v128.const f64x2 4.13813679705723846039e-08 4.13813679705723846039e-08)))
    (local.set $c0 (f64x2.mul (local.get $t0) (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (local.get $c0))))
    (local.set $c1 (f64x2.mul (local.get $t1) (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (local.get $c1))))
    (local.set $c2 (f64x2.mul (local.get $t2) (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (local.get $c2))))
    (local.set $c3 (f64x2.mul (local.get $t3) (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (local.get $c3))))
    (local.set $c4 (f64x2.mul (local.get $t4) (f64x2.add (v128.const f64x2 -1.65339022054652515390e-06 -1.65339022054652515390e-06) (local.get $c4))))
    (local.set $c0 (f64x2.mul (local.get $t0) (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (local.get $c0))))
    (local.set $c1 (f64x2.mul (local.get $t1) (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (local.get $c1))))
    (local.set $c2 (f64x2.mul (local.get $t2) (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (local.get $c2))))
    (local.set $c3 (f64x2.mul (local.get $t3) (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (local.get $c3))))
    (local.set $c4 (f64x2.mul (local.get $t4) (f64x2.add (v128.const f64x2 6.61375632143793436117e-05 6.61375632143793436117e-05) (local.get $c4))))
    (local.set $c0 (f64x2.mul (local.get $t0) (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (local.get $c0))))
    (local.set $c1 (f64x2.mul (local.get $t1) (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (local.get $c1))))
    (local.set $c2 (f64x2.mul (local.get $t2) (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (local.get $c2))))
    (local.set $c3 (f64x2.mul (local.get $t3) (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (local.get $c3))))
    (local.set $c4 (f64x2.mul (local.get $t4) (f64x2.add (v128.const f64x2 -2.77777777770155933842e-03 -2.77777777770155933842e-03) (local.get $c4))))
    (local.set $c0 (f64x2.sub (local.get $r0)
      (f64x2.mul (local.get $t0) (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01) (local.get $c0)))))
    (local.set $c1 (f64x2.sub (local.get $r1)
      (f64x2.mul (local.get $t1) (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01) (local.get $c1)))))
    (local.set $c2 (f64x2.sub (local.get $r2)
      (f64x2.mul (local.get $t2) (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01) (local.get $c2)))))
    (local.set $c3 (f64x2.sub (local.get $r3)
      (f64x2.mul (local.get $t3) (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01) (local.get $c3)))))
    (local.set $c4 (f64x2.sub (local.get $r4)
      (f64x2.mul (local.get $t4) (f64x2.add (v128.const f64x2 1.66666666666666657415e-01 1.66666666666666657415e-01) (local.get $c4)))))
    (local.set $y0 (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo0)
          (f64x2.div (f64x2.mul (local.get $r0) (local.get $c0)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c0))))
        (local.get $hi0))))
    (local.set $y1 (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo1)
          (f64x2.div (f64x2.mul (local.get $r1) (local.get $c1)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c1))))
        (local.get $hi1))))
    (local.set $y2 (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo2)
          (f64x2.div (f64x2.mul (local.get $r2) (local.get $c2)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c2))))
        (local.get $hi2))))
    (local.set $y3 (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo3)
          (f64x2.div (f64x2.mul (local.get $r3) (local.get $c3)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c3))))
        (local.get $hi3))))
    (local.set $y4 (f64x2.sub (v128.const f64x2 1 1)
      (f64x2.sub
        (f64x2.sub (local.get $lo4)
          (f64x2.div (f64x2.mul (local.get $r4) (local.get $c4)) (f64x2.sub (v128.const f64x2 2 2) (local.get $c4))))
        (local.get $hi4))))
    (f64x2.mul (local.get $y0)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k0)) (v128.const i64x2 1023 1023)) (i32.const 52)))
    (f64x2.mul (local.get $y1)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k1)) (v128.const i64x2 1023 1023)) (i32.const 52)))
    (f64x2.mul (local.get $y2)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k2)) (v128.const i64x2 1023 1023)) (i32.const 52)))
    (f64x2.mul (local.get $y3)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k3)) (v128.const i64x2 1023 1023)) (i32.const 52)))
    (f64x2.mul (local.get $y4)
      (i64x2.shl (i64x2.add (i64x2.extend_low_i32x4_s (local.get $k4)) (v128.const i64x2 1023 1023)) (i32.const 52))))

  ;; probs is four probabilities as float32, h = e·inv (0 below 2**-100),
  ;; from the exponentials of two pairs of classes.
  (func $probs (param $a v128) (param $b v128) (param $inv v128) (result v128)
    (local.set $a (f64x2.mul (local.get $a) (local.get $inv)))
    (local.set $b (f64x2.mul (local.get $b) (local.get $inv)))
    (local.set $a (v128.andnot (local.get $a) (f64x2.lt (local.get $a) (v128.const f64x2 0x1p-100 0x1p-100))))
    (local.set $b (v128.andnot (local.get $b) (f64x2.lt (local.get $b) (v128.const f64x2 0x1p-100 0x1p-100))))
    (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
      (f32x4.demote_f64x2_zero (local.get $a)) (f32x4.demote_f64x2_zero (local.get $b))))

  ;; grad adds into gw (rows×10) and gb (10) the unnormalised gradient of
  ;; the cross-entropy of the examples at positions batch[0..n) and writes
  ;; their summed cross-entropy, Σ (max z + log Σ exp(z − max z)) − z_y in
  ;; batch order, at out (f64). The examples come as Go's softmax.Blocks,
  ;; cut into pairs and singles: pstart int32[], pairs {u16 j, f32 v1 at 4,
  ;; f32 v2 at 8}[], sstart int32[], singles {u16 j, f32 v at 4}[]; labels
  ;; uint8[]. It returns -1, or the k of the first example with a pixel
  ;; not below rows (then nothing of that example is written, nor the loss).
  ;;
  ;; The logits are softmax's pairLogits: the singles add into b's three
  ;; vectors, then a pair's two rows of weights, twenty adjacent floats,
  ;; are five vectors against (v1 v1 v1 v1), (v1 v1 v1 v1), (v1 v1 v2 v2),
  ;; (v2 v2 v2 v2), (v2 v2 v2 v2): the first pixels' sums go on in the
  ;; singles' vectors (classes 0-3, 4-7, and 8-9 in lanes 0 and 1), the
  ;; second pixels' in lanes 2 and 3 of the third (classes 0 and 1) and in
  ;; two more vectors (2-5, 6-9); z = firsts + seconds. The scatter takes a
  ;; pair the same way, with d laid out as (0-3), (4-7), (8 9 0 1), (2-5),
  ;; (6-9): each gradient entry still gets one rounded product per example,
  ;; in batch order, as the Go code adds them. Ten lanes of twelve do work
  ;; for a single, twenty of twenty for a pair, and a pair takes one index,
  ;; one address and one turn of its loop for two pixels.
  ;;
  ;; An epoch of SGD takes its examples from all over memory, and
  ;; WebAssembly has no prefetch instruction: every fourth example, the
  ;; pairs and first singles of the four examples two to five places on in
  ;; the batch (at the first, of the first six) are read, a byte per cache
  ;; line, so that they are on their way by the time they come. A load
  ;; that misses holds up the instructions after it until its line comes;
  ;; asked for together, the lines of four examples wait as one
  ;; (docs/decisions/0033).
  (func (export "grad")
    (param $w i32) (param $b i32) (param $gw i32) (param $gb i32)
    (param $pstart i32) (param $pairs i32) (param $sstart i32) (param $singles i32) (param $labels i32)
    (param $batch i32) (param $n i32) (param $rows i32) (param $out i32)
    (result i32)
    (local $k i32) (local $ex i32) (local $j i32) (local $o i32) (local $rows1 i32)
    (local $p i32) (local $pEnd i32) (local $s i32) (local $sEnd i32)
    (local $q i32) (local $qEnd i32) (local $touch i32) (local $t i32) (local $tEnd i32)
    (local $v v128) (local $x v128) (local $vx v128)
    (local $z0 v128) (local $z1 v128) (local $z2 v128) (local $a3 v128) (local $a4 v128)
    (local $mv v128) (local $yv v128) (local $y0 v128) (local $y1 v128) (local $y2 v128)
    (local $e01 v128) (local $e23 v128) (local $e45 v128) (local $e67 v128) (local $e89 v128) (local $inv v128)
    (local $m f32) (local $zy f32) (local $sum f64) (local $loss f64)
    (local.set $rows1 (i32.sub (local.get $rows) (i32.const 1)))
    (block $done
      (loop $examples
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $ex (i32.load (i32.add (local.get $batch) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $o (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $p (i32.add (local.get $pairs) (i32.mul (i32.load (local.get $o)) (i32.const 12))))
        (local.set $pEnd (i32.add (local.get $pairs) (i32.mul (i32.load offset=4 (local.get $o)) (i32.const 12))))
        (local.set $o (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $s (i32.add (local.get $singles) (i32.shl (i32.load (local.get $o)) (i32.const 3))))
        (local.set $sEnd (i32.add (local.get $singles) (i32.shl (i32.load offset=4 (local.get $o)) (i32.const 3))))

        ;; Read ahead (see above).
        (if (i32.eqz (i32.and (local.get $k) (i32.const 3))) (then
          (local.set $t (select (i32.add (local.get $k) (i32.const 2)) (i32.const 0) (local.get $k)))
          (local.set $tEnd (i32.add (local.get $k) (i32.const 6)))
          (if (i32.gt_u (local.get $tEnd) (local.get $n)) (then (local.set $tEnd (local.get $n))))
          (block $ahead
            (loop $examplesAhead
              (br_if $ahead (i32.ge_u (local.get $t) (local.get $tEnd)))
              (local.set $o (i32.load (i32.add (local.get $batch) (i32.shl (local.get $t) (i32.const 2)))))
              (local.set $q (i32.add (local.get $pstart) (i32.shl (local.get $o) (i32.const 2))))
              (local.set $qEnd (i32.add (local.get $pairs) (i32.mul (i32.load offset=4 (local.get $q)) (i32.const 12))))
              (local.set $q (i32.add (local.get $pairs) (i32.mul (i32.load (local.get $q)) (i32.const 12))))
              (local.set $touch (i32.xor (local.get $touch) (i32.load8_u (i32.add (local.get $singles) (i32.shl
                (i32.load (i32.add (local.get $sstart) (i32.shl (local.get $o) (i32.const 2)))) (i32.const 3))))))
              (block $touched
                (loop $touching
                  (br_if $touched (i32.ge_u (local.get $q) (local.get $qEnd)))
                  (local.set $touch (i32.xor (local.get $touch) (i32.load8_u (local.get $q))))
                  (local.set $q (i32.add (local.get $q) (i32.const 64)))
                  (br $touching)))
              (local.set $t (i32.add (local.get $t) (i32.const 1)))
              (br $examplesAhead)))))

        ;; z = b + the singles, then the pairs (see above).
        (local.set $z0 (v128.load (local.get $b)))
        (local.set $z1 (v128.load offset=16 (local.get $b)))
        (local.set $z2 (v128.load64_zero offset=32 (local.get $b)))
        (block $fwd1Done
          (loop $fwd1
            (br_if $fwd1Done (i32.ge_u (local.get $s) (local.get $sEnd)))
            (local.set $j (i32.load16_u (local.get $s)))
            (if (i32.ge_u (local.get $j) (local.get $rows)) (then (return (local.get $k))))
            (local.set $o (i32.add (local.get $w) (i32.mul (local.get $j) (i32.const 40))))
            (local.set $v (v128.load32_splat offset=4 (local.get $s)))
            (local.set $z0 (f32x4.add (local.get $z0) (f32x4.mul (local.get $v) (v128.load (local.get $o)))))
            (local.set $z1 (f32x4.add (local.get $z1) (f32x4.mul (local.get $v) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f32x4.add (local.get $z2) (f32x4.mul (local.get $v) (v128.load64_zero offset=32 (local.get $o)))))
            (local.set $s (i32.add (local.get $s) (i32.const 8)))
            (br $fwd1)))
        (local.set $z2 (v128.and (local.get $z2) (v128.const i32x4 -1 -1 0 0)))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $a4 (v128.const i32x4 0 0 0 0))
        (block $fwd2Done
          (loop $fwd2
            (br_if $fwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $j (i32.load16_u (local.get $p)))
            (if (i32.ge_u (local.get $j) (local.get $rows1)) (then (return (local.get $k))))
            (local.set $o (i32.add (local.get $w) (i32.mul (local.get $j) (i32.const 40))))
            (local.set $v (v128.load32_splat offset=4 (local.get $p)))
            (local.set $x (v128.load32_splat offset=8 (local.get $p)))
            (local.set $vx (i8x16.shuffle 0 1 2 3 0 1 2 3 16 17 18 19 16 17 18 19 (local.get $v) (local.get $x)))
            (local.set $z0 (f32x4.add (local.get $z0) (f32x4.mul (local.get $v) (v128.load (local.get $o)))))
            (local.set $z1 (f32x4.add (local.get $z1) (f32x4.mul (local.get $v) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f32x4.add (local.get $z2) (f32x4.mul (local.get $vx) (v128.load offset=32 (local.get $o)))))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $x) (v128.load offset=48 (local.get $o)))))
            (local.set $a4 (f32x4.add (local.get $a4) (f32x4.mul (local.get $x) (v128.load offset=64 (local.get $o)))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $fwd2)))
        (local.set $z0 (f32x4.add (local.get $z0)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get $z2) (local.get $a3))))
        (local.set $z1 (f32x4.add (local.get $z1)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get $a3) (local.get $a4))))
        (local.set $z2 (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $z2) (v128.const i32x4 0 0 0 0))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get $a4) (v128.const i32x4 0 0 0 0))))

        ;; m = max z. Any order gives the same m but for the sign of a
        ;; zero, which changes neither exp(z − m) nor the loss.
        (local.set $mv (f32x4.pmax (local.get $z0) (local.get $z1)))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $z2) (local.get $z2))))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mv) (local.get $mv))))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mv) (local.get $mv))))
        (local.set $m (f32x4.extract_lane 0 (local.get $mv)))
        (local.set $mv (f32x4.splat (local.get $m)))

        ;; The true class's lane, by masks: a lane of z is never read back
        ;; from memory, where a narrow load after a wide store stalls.
        (local.set $yv (i32x4.splat (i32.load8_u (i32.add (local.get $labels) (local.get $ex)))))
        (local.set $y0 (i32x4.eq (v128.const i32x4 0 1 2 3) (local.get $yv)))
        (local.set $y1 (i32x4.eq (v128.const i32x4 4 5 6 7) (local.get $yv)))
        (local.set $y2 (i32x4.eq (v128.const i32x4 8 9 -1 -1) (local.get $yv)))
        (local.set $v (v128.or (v128.or
          (v128.and (local.get $z0) (local.get $y0)) (v128.and (local.get $z1) (local.get $y1)))
          (v128.and (local.get $z2) (local.get $y2))))
        (local.set $v (v128.or (local.get $v)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
        (local.set $v (v128.or (local.get $v)
          (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $v) (local.get $v))))
        (local.set $zy (f32x4.extract_lane 0 (local.get $v)))

        ;; e_c = exp(z_c − m), two classes at a time, s = Σ e_c in class order.
        (local.set $z0 (f32x4.sub (local.get $z0) (local.get $mv)))
        (local.set $z1 (f32x4.sub (local.get $z1) (local.get $mv)))
        (local.set $z2 (f32x4.sub (local.get $z2) (local.get $mv)))
        (call $exp10 (f64x2.promote_low_f32x4 (local.get $z0))
          (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z0) (local.get $z0)))
          (f64x2.promote_low_f32x4 (local.get $z1))
          (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z1) (local.get $z1)))
          (f64x2.promote_low_f32x4 (local.get $z2)))
        (local.set $e89)
        (local.set $e67)
        (local.set $e45)
        (local.set $e23)
        (local.set $e01)
        (local.set $sum (call $sum10 (local.get $e01) (local.get $e23) (local.get $e45) (local.get $e67) (local.get $e89)))
        (local.set $loss (f64.add (local.get $loss) (f64.sub
          (f64.add (f64.promote_f32 (local.get $m)) (call $log (local.get $sum)))
          (f64.promote_f32 (local.get $zy)))))

        ;; h_c = e_c/s (0 below 2**-100), then d = h − [c = y]: the error signal.
        (local.set $inv (f64x2.splat (f64.div (f64.const 1) (local.get $sum))))
        (local.set $z0 (call $probs (local.get $e01) (local.get $e23) (local.get $inv)))
        (local.set $z1 (call $probs (local.get $e45) (local.get $e67) (local.get $inv)))
        (local.set $z2 (call $probs (local.get $e89) (local.get $e89) (local.get $inv)))
        (local.set $z0 (f32x4.sub (local.get $z0) (v128.and (local.get $y0) (v128.const f32x4 1 1 1 1))))
        (local.set $z1 (f32x4.sub (local.get $z1) (v128.and (local.get $y1) (v128.const f32x4 1 1 1 1))))
        (local.set $z2 (f32x4.sub (local.get $z2) (v128.and (local.get $y2) (v128.const f32x4 1 1 1 1))))

        ;; gw[j] += v·d for the singles, gb += d, then for the pairs.
        (local.set $s (i32.add (local.get $singles) (i32.shl
          (i32.load (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 3))))
        (block $bwd1Done
          (loop $bwd1
            (br_if $bwd1Done (i32.ge_u (local.get $s) (local.get $sEnd)))
            (local.set $o (i32.add (local.get $gw) (i32.mul (i32.load16_u (local.get $s)) (i32.const 40))))
            (local.set $v (v128.load32_splat offset=4 (local.get $s)))
            (v128.store (local.get $o) (f32x4.add (v128.load (local.get $o)) (f32x4.mul (local.get $v) (local.get $z0))))
            (v128.store offset=16 (local.get $o) (f32x4.add (v128.load offset=16 (local.get $o)) (f32x4.mul (local.get $v) (local.get $z1))))
            (v128.store64_lane offset=32 0 (local.get $o)
              (f32x4.add (v128.load64_zero offset=32 (local.get $o)) (f32x4.mul (local.get $v) (local.get $z2))))
            (local.set $s (i32.add (local.get $s) (i32.const 8)))
            (br $bwd1)))
        (v128.store (local.get $gb) (f32x4.add (v128.load (local.get $gb)) (local.get $z0)))
        (v128.store offset=16 (local.get $gb) (f32x4.add (v128.load offset=16 (local.get $gb)) (local.get $z1)))
        (v128.store64_lane offset=32 0 (local.get $gb)
          (f32x4.add (v128.load64_zero offset=32 (local.get $gb)) (local.get $z2)))
        (local.set $z2 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $z2) (local.get $z0)))
        (local.set $a3 (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get $z0) (local.get $z1)))
        (local.set $a4 (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 (local.get $z1) (local.get $z2)))
        (local.set $p (i32.add (local.get $pairs) (i32.mul
          (i32.load (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 12))))
        (block $bwd2Done
          (loop $bwd2
            (br_if $bwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $o (i32.add (local.get $gw) (i32.mul (i32.load16_u (local.get $p)) (i32.const 40))))
            (local.set $v (v128.load32_splat offset=4 (local.get $p)))
            (local.set $x (v128.load32_splat offset=8 (local.get $p)))
            (local.set $vx (i8x16.shuffle 0 1 2 3 0 1 2 3 16 17 18 19 16 17 18 19 (local.get $v) (local.get $x)))
            (v128.store (local.get $o) (f32x4.add (v128.load (local.get $o)) (f32x4.mul (local.get $v) (local.get $z0))))
            (v128.store offset=16 (local.get $o) (f32x4.add (v128.load offset=16 (local.get $o)) (f32x4.mul (local.get $v) (local.get $z1))))
            (v128.store offset=32 (local.get $o) (f32x4.add (v128.load offset=32 (local.get $o)) (f32x4.mul (local.get $vx) (local.get $z2))))
            (v128.store offset=48 (local.get $o) (f32x4.add (v128.load offset=48 (local.get $o)) (f32x4.mul (local.get $x) (local.get $a3))))
            (v128.store offset=64 (local.get $o) (f32x4.add (v128.load offset=64 (local.get $o)) (f32x4.mul (local.get $x) (local.get $a4))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $bwd2)))
        ;; the next example
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $examples)))
    (f64.store (local.get $out) (local.get $loss))
    (global.set $touched (local.get $touch))
    (i32.const -1))

  ;; update is core/softmax.Update: w[i] := w[i] − a·(g[i]·inv + λ·w[i]),
  ;; g[i] := 0 for i < n, returning Σ w[i]² of the old weights in four
  ;; lanes (i mod 4) as (s0 + s1) + (s2 + s3); with λ = 0 the step
  ;; without λ's term, returning 0.
  (func (export "update")
    (param $w i32) (param $g i32) (param $n i32) (param $a f32) (param $inv f32) (param $lam f32)
    (result f64)
    (local $i i32) (local $p i32) (local $q i32) (local $wv v128) (local $lo v128) (local $hi v128)
    (local $av v128) (local $iv v128) (local $lv v128) (local $s01 v128) (local $s23 v128)
    (local $wi f32) (local $sq f64) (local $l0 f64) (local $l1 f64) (local $l2 f64) (local $l3 f64)
    (local.set $av (f32x4.splat (local.get $a)))
    (local.set $iv (f32x4.splat (local.get $inv)))
    (local.set $lv (f32x4.splat (local.get $lam)))
    (if (f32.eq (local.get $lam) (f32.const 0))
      (then
        (block $done0
          (loop $four0
            (br_if $done0 (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
            (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $q (i32.add (local.get $g) (i32.shl (local.get $i) (i32.const 2))))
            (v128.store (local.get $p) (f32x4.sub (v128.load (local.get $p))
              (f32x4.mul (local.get $av) (f32x4.mul (v128.load (local.get $q)) (local.get $iv)))))
            (v128.store (local.get $q) (v128.const i32x4 0 0 0 0))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $four0)))
        (block $tail0
          (loop $one0
            (br_if $tail0 (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $q (i32.add (local.get $g) (i32.shl (local.get $i) (i32.const 2))))
            (f32.store (local.get $p) (f32.sub (f32.load (local.get $p))
              (f32.mul (local.get $a) (f32.mul (f32.load (local.get $q)) (local.get $inv)))))
            (f32.store (local.get $q) (f32.const 0))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $one0)))
        (return (f64.const 0))))
    (block $done
      (loop $four
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $q (i32.add (local.get $g) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $wv (v128.load (local.get $p)))
        (local.set $lo (f64x2.promote_low_f32x4 (local.get $wv)))
        (local.set $hi (f64x2.promote_low_f32x4
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $wv) (local.get $wv))))
        (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $lo) (local.get $lo))))
        (local.set $s23 (f64x2.add (local.get $s23) (f64x2.mul (local.get $hi) (local.get $hi))))
        (v128.store (local.get $p) (f32x4.sub (local.get $wv)
          (f32x4.mul (local.get $av) (f32x4.add
            (f32x4.mul (v128.load (local.get $q)) (local.get $iv))
            (f32x4.mul (local.get $lv) (local.get $wv))))))
        (v128.store (local.get $q) (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $four)))
    (local.set $l0 (f64x2.extract_lane 0 (local.get $s01)))
    (local.set $l1 (f64x2.extract_lane 1 (local.get $s01)))
    (local.set $l2 (f64x2.extract_lane 0 (local.get $s23)))
    (local.set $l3 (f64x2.extract_lane 1 (local.get $s23)))
    ;; The last n mod 4 weights, into lanes 0, 1 and 2.
    (block $tail
      (loop $one
        (br_if $tail (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $p (i32.add (local.get $w) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $q (i32.add (local.get $g) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $wi (f32.load (local.get $p)))
        (local.set $sq (f64.mul (f64.promote_f32 (local.get $wi)) (f64.promote_f32 (local.get $wi))))
        (if (i32.eqz (i32.and (local.get $i) (i32.const 3)))
          (then (local.set $l0 (f64.add (local.get $l0) (local.get $sq))))
          (else (if (i32.eq (i32.and (local.get $i) (i32.const 3)) (i32.const 1))
            (then (local.set $l1 (f64.add (local.get $l1) (local.get $sq))))
            (else (local.set $l2 (f64.add (local.get $l2) (local.get $sq)))))))
        (f32.store (local.get $p) (f32.sub (local.get $wi)
          (f32.mul (local.get $a) (f32.add
            (f32.mul (f32.load (local.get $q)) (local.get $inv))
            (f32.mul (local.get $lam) (local.get $wi))))))
        (f32.store (local.get $q) (f32.const 0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $one)))
    (f64.add (f64.add (local.get $l0) (local.get $l1)) (f64.add (local.get $l2) (local.get $l3))))

  ;; add32 and add64 are core/shard.Add32 and Add64: dst[i] += src[i], i < n.
  (func (export "add32") (param $dst i32) (param $src i32) (param $n i32)
    (local $i i32) (local $p i32) (local $q i32)
    (block $done
      (loop $four
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (local.set $p (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 2))))
        (local.set $q (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 2))))
        (v128.store (local.get $p) (f32x4.add (v128.load (local.get $p)) (v128.load (local.get $q))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $four)))
    (block $tail
      (loop $one
        (br_if $tail (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $p (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 2))))
        (f32.store (local.get $p) (f32.add (f32.load (local.get $p))
          (f32.load (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 2))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $one))))

  (func (export "add64") (param $dst i32) (param $src i32) (param $n i32)
    (local $i i32) (local $p i32) (local $q i32)
    (block $done
      (loop $two
        (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (local.set $p (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 3))))
        (local.set $q (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3))))
        (v128.store (local.get $p) (f64x2.add (v128.load (local.get $p)) (v128.load (local.get $q))))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $two)))
    (if (i32.lt_u (local.get $i) (local.get $n))
      (then
        (local.set $p (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p))
          (f64.load (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3)))))))))

  ;; eval is core/metrics.EvaluateRange's loop for the float32 examples
  ;; lo..hi−1 (positions, not a batch): for the i-th it writes the
  ;; predicted class, the first of the largest logits (softmax.Argmax,
  ;; lane by lane in class order), at class+(i−lo), and at out (f64) the
  ;; log likelihood Σ z_y − (max z + log Σ exp(z − max z)) in order. It
  ;; returns -1, or the position of the first example with a pixel index
  ;; not below rows.
  (func (export "eval")
    (param $w i32) (param $b i32) (param $start i32) (param $index i32) (param $value i32)
    (param $labels i32) (param $lo i32) (param $hi i32) (param $rows i32) (param $out i32) (param $class i32)
    (result i32)
    (local $ex i32) (local $t i32) (local $end i32) (local $j i32) (local $o i32) (local $best i32)
    (local $v v128) (local $z0 v128) (local $z1 v128) (local $z2 v128) (local $mv v128)
    (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $yv v128)
    (local $e01 v128) (local $e23 v128) (local $e45 v128) (local $e67 v128) (local $e89 v128)
    (local $m f32) (local $zb f32) (local $zc f32) (local $zy f32) (local $ll f64)
    (local.set $ex (local.get $lo))
    (block $done
      (loop $examples
        (br_if $done (i32.ge_u (local.get $ex) (local.get $hi)))
        (local.set $t (i32.load (i32.add (local.get $start) (i32.shl (local.get $ex) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $start) (i32.shl (local.get $ex) (i32.const 2)))))
        (local.set $z0 (v128.load (local.get $b)))
        (local.set $z1 (v128.load offset=16 (local.get $b)))
        (local.set $z2 (v128.load64_zero offset=32 (local.get $b)))
        (block $fwdDone
          (loop $fwd
            (br_if $fwdDone (i32.ge_u (local.get $t) (local.get $end)))
            (local.set $j (i32.load16_u (i32.add (local.get $index) (i32.shl (local.get $t) (i32.const 1)))))
            (if (i32.ge_u (local.get $j) (local.get $rows)) (then (return (local.get $ex))))
            (local.set $v (v128.load32_splat (i32.add (local.get $value) (i32.shl (local.get $t) (i32.const 2)))))
            (local.set $o (i32.add (local.get $w) (i32.mul (local.get $j) (i32.const 40))))
            (local.set $z0 (f32x4.add (local.get $z0) (f32x4.mul (local.get $v) (v128.load (local.get $o)))))
            (local.set $z1 (f32x4.add (local.get $z1) (f32x4.mul (local.get $v) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f32x4.add (local.get $z2) (f32x4.mul (local.get $v) (v128.load64_zero offset=32 (local.get $o)))))
            (local.set $t (i32.add (local.get $t) (i32.const 1)))
            (br $fwd)))
        ;; The first of the largest logits, as softmax.Argmax: z_c > z_best.
        (local.set $best (i32.const 0))
        (local.set $zb (f32x4.extract_lane 0 (local.get $z0)))
        (local.set $zc (f32x4.extract_lane 1 (local.get $z0)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 1)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 2 (local.get $z0)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 2)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 3 (local.get $z0)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 3)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 0 (local.get $z1)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 4)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 1 (local.get $z1)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 5)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 2 (local.get $z1)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 6)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 3 (local.get $z1)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 7)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 0 (local.get $z2)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 8)) (local.set $zb (local.get $zc))))
        (local.set $zc (f32x4.extract_lane 1 (local.get $z2)))
        (if (f32.gt (local.get $zc) (local.get $zb)) (then (local.set $best (i32.const 9)) (local.set $zb (local.get $zc))))
        (i32.store8 (i32.add (local.get $class) (i32.sub (local.get $ex) (local.get $lo))) (local.get $best))
        ;; m, zy and s as grad computes them.
        (local.set $mv (f32x4.pmax (local.get $z0) (local.get $z1)))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $z2) (local.get $z2))))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mv) (local.get $mv))))
        (local.set $mv (f32x4.pmax (local.get $mv)
          (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mv) (local.get $mv))))
        (local.set $m (f32x4.extract_lane 0 (local.get $mv)))
        (local.set $mv (f32x4.splat (local.get $m)))
        (local.set $yv (i32x4.splat (i32.load8_u (i32.add (local.get $labels) (local.get $ex)))))
        (local.set $y0 (i32x4.eq (v128.const i32x4 0 1 2 3) (local.get $yv)))
        (local.set $y1 (i32x4.eq (v128.const i32x4 4 5 6 7) (local.get $yv)))
        (local.set $y2 (i32x4.eq (v128.const i32x4 8 9 -1 -1) (local.get $yv)))
        (local.set $v (v128.or (v128.or
          (v128.and (local.get $z0) (local.get $y0)) (v128.and (local.get $z1) (local.get $y1)))
          (v128.and (local.get $z2) (local.get $y2))))
        (local.set $v (v128.or (local.get $v)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
        (local.set $v (v128.or (local.get $v)
          (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $v) (local.get $v))))
        (local.set $zy (f32x4.extract_lane 0 (local.get $v)))
        (local.set $z0 (f32x4.sub (local.get $z0) (local.get $mv)))
        (local.set $z1 (f32x4.sub (local.get $z1) (local.get $mv)))
        (local.set $z2 (f32x4.sub (local.get $z2) (local.get $mv)))
        (call $exp10 (f64x2.promote_low_f32x4 (local.get $z0))
          (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z0) (local.get $z0)))
          (f64x2.promote_low_f32x4 (local.get $z1))
          (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $z1) (local.get $z1)))
          (f64x2.promote_low_f32x4 (local.get $z2)))
        (local.set $e89)
        (local.set $e67)
        (local.set $e45)
        (local.set $e23)
        (local.set $e01)
        (local.set $ll (f64.add (local.get $ll) (f64.sub (f64.promote_f32 (local.get $zy))
          (f64.add (f64.promote_f32 (local.get $m))
            (call $log (call $sum10 (local.get $e01) (local.get $e23) (local.get $e45) (local.get $e67) (local.get $e89)))))))
        (local.set $ex (i32.add (local.get $ex) (i32.const 1)))
        (br $examples)))
    (f64.store (local.get $out) (local.get $ll))
    (i32.const -1))

  ;; sum10 is the ten lanes of five f64x2 added in class order from 0, as
  ;; Go's loop s += e_c does.
  (func $sum10 (param $a v128) (param $b v128) (param $c v128) (param $d v128) (param $e v128) (result f64)
    (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.const 0)
      (f64x2.extract_lane 0 (local.get $a))) (f64x2.extract_lane 1 (local.get $a)))
      (f64x2.extract_lane 0 (local.get $b))) (f64x2.extract_lane 1 (local.get $b)))
      (f64x2.extract_lane 0 (local.get $c))) (f64x2.extract_lane 1 (local.get $c)))
      (f64x2.extract_lane 0 (local.get $d))) (f64x2.extract_lane 1 (local.get $d)))
      (f64x2.extract_lane 0 (local.get $e))) (f64x2.extract_lane 1 (local.get $e))))

  ;; max10 is the largest of ten f64 lanes (a zero's sign aside, as $grad's).
  (func $max10 (param $a v128) (param $b v128) (param $c v128) (param $d v128) (param $e v128) (result f64)
    (local $m v128)
    (local.set $m (f64x2.pmax (f64x2.pmax (f64x2.pmax (local.get $a) (local.get $b))
      (f64x2.pmax (local.get $c) (local.get $d))) (local.get $e)))
    (f64.max (f64x2.extract_lane 0 (local.get $m)) (f64x2.extract_lane 1 (local.get $m))))

  ;; neval is core/newton's evalRange on float32 pixels, widened: for the
  ;; examples 0..n−1 at the parameters v (rows×10 weights, then 10 biases,
  ;; float64) it adds into g and h (the same layout) the unnormalised
  ;; gradient and Hessian diagonal,
  ;;   g[j,c] += x_j (μ_c − [y = c]),  h[j,c] += x_j² μ_c (1 − μ_c),
  ;; writes μ at mu+80i and {s, m, zy} (f64 each) at out+24i, from which Go
  ;; adds up the cross-entropy. It returns -1, or the first example with a
  ;; pixel index not below rows (nothing of it written).
  (func (export "neval")
    (param $v i32) (param $g i32) (param $h i32) (param $mu i32) (param $out i32)
    (param $pstart i32) (param $pairs i32) (param $sstart i32) (param $singles i32) (param $labels i32)
    (param $n i32) (param $rows i32)
    (result i32)
    (local $ex i32) (local $o i32) (local $bias i32) (local $rows1 i32) (local $jo i32)
    (local $p i32) (local $pEnd i32) (local $sp i32) (local $sEnd i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128) (local $w v128) (local $ww v128)
    (local $x v128) (local $xx v128) (local $m v128) (local $inv v128) (local $one v128)
    (local $z0 v128) (local $z1 v128) (local $z2 v128) (local $z3 v128) (local $z4 v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128)
    (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128) (local $y4 v128) (local $yv v128)
    (local $s f64) (local $zy f64)
    (local.set $bias (i32.add (local.get $v) (i32.mul (local.get $rows) (i32.const 80))))
    (local.set $one (v128.const f64x2 1 1))
    (local.set $rows1 (i32.sub (local.get $rows) (i32.const 1)))
    (block $done
      (loop $examples
        (br_if $done (i32.ge_u (local.get $ex) (local.get $n)))
        (local.set $o (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $p (i32.add (local.get $pairs) (i32.mul (i32.load (local.get $o)) (i32.const 12))))
        (local.set $pEnd (i32.add (local.get $pairs) (i32.mul (i32.load offset=4 (local.get $o)) (i32.const 12))))
        (local.set $o (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $sp (i32.add (local.get $singles) (i32.shl (i32.load (local.get $o)) (i32.const 3))))
        (local.set $sEnd (i32.add (local.get $singles) (i32.shl (i32.load offset=4 (local.get $o)) (i32.const 3))))
        (local.set $z0 (v128.load (local.get $bias)))
        (local.set $z1 (v128.load offset=16 (local.get $bias)))
        (local.set $z2 (v128.load offset=32 (local.get $bias)))
        (local.set $z3 (v128.load offset=48 (local.get $bias)))
        (local.set $z4 (v128.load offset=64 (local.get $bias)))
        (block $fwd1Done
          (loop $fwd1
            (br_if $fwd1Done (i32.ge_u (local.get $sp) (local.get $sEnd)))
            (local.set $o (i32.load16_u (local.get $sp)))
            (if (i32.ge_u (local.get $o) (local.get $rows)) (then (return (local.get $ex))))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load offset=4 (local.get $sp)))))
            (local.set $o (i32.add (local.get $v) (i32.mul (local.get $o) (i32.const 80))))
            (local.set $z0 (f64x2.add (local.get $z0) (f64x2.mul (local.get $x) (v128.load (local.get $o)))))
            (local.set $z1 (f64x2.add (local.get $z1) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f64x2.add (local.get $z2) (f64x2.mul (local.get $x) (v128.load offset=32 (local.get $o)))))
            (local.set $z3 (f64x2.add (local.get $z3) (f64x2.mul (local.get $x) (v128.load offset=48 (local.get $o)))))
            (local.set $z4 (f64x2.add (local.get $z4) (f64x2.mul (local.get $x) (v128.load offset=64 (local.get $o)))))
            (local.set $sp (i32.add (local.get $sp) (i32.const 8)))
            (br $fwd1)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $a4 (v128.const i32x4 0 0 0 0))
        (block $fwd2Done
          (loop $fwd2
            (br_if $fwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $o (i32.load16_u (local.get $p)))
            (if (i32.ge_u (local.get $o) (local.get $rows1)) (then (return (local.get $ex))))
            (local.set $x (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (local.get $p))))
            (local.set $xx (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x)))
            (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
            (local.set $o (i32.add (local.get $v) (i32.mul (local.get $o) (i32.const 80))))
            (local.set $z0 (f64x2.add (local.get $z0) (f64x2.mul (local.get $x) (v128.load (local.get $o)))))
            (local.set $z1 (f64x2.add (local.get $z1) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f64x2.add (local.get $z2) (f64x2.mul (local.get $x) (v128.load offset=32 (local.get $o)))))
            (local.set $z3 (f64x2.add (local.get $z3) (f64x2.mul (local.get $x) (v128.load offset=48 (local.get $o)))))
            (local.set $z4 (f64x2.add (local.get $z4) (f64x2.mul (local.get $x) (v128.load offset=64 (local.get $o)))))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $xx) (v128.load offset=80 (local.get $o)))))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $xx) (v128.load offset=96 (local.get $o)))))
            (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $xx) (v128.load offset=112 (local.get $o)))))
            (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $xx) (v128.load offset=128 (local.get $o)))))
            (local.set $a4 (f64x2.add (local.get $a4) (f64x2.mul (local.get $xx) (v128.load offset=144 (local.get $o)))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $fwd2)))
        (local.set $z0 (f64x2.add (local.get $z0) (local.get $a0)))
        (local.set $z1 (f64x2.add (local.get $z1) (local.get $a1)))
        (local.set $z2 (f64x2.add (local.get $z2) (local.get $a2)))
        (local.set $z3 (f64x2.add (local.get $z3) (local.get $a3)))
        (local.set $z4 (f64x2.add (local.get $z4) (local.get $a4)))
        ;; zy, m, e = exp(z − m), s: softmax.Softmax in float64.
        (local.set $yv (i64x2.splat (i64.extend_i32_u (i32.load8_u (i32.add (local.get $labels) (local.get $ex))))))
        (local.set $y0 (i64x2.eq (v128.const i64x2 0 1) (local.get $yv)))
        (local.set $y1 (i64x2.eq (v128.const i64x2 2 3) (local.get $yv)))
        (local.set $y2 (i64x2.eq (v128.const i64x2 4 5) (local.get $yv)))
        (local.set $y3 (i64x2.eq (v128.const i64x2 6 7) (local.get $yv)))
        (local.set $y4 (i64x2.eq (v128.const i64x2 8 9) (local.get $yv)))
        (local.set $x (v128.or (v128.or (v128.or (v128.or
          (v128.and (local.get $z0) (local.get $y0)) (v128.and (local.get $z1) (local.get $y1)))
          (v128.and (local.get $z2) (local.get $y2))) (v128.and (local.get $z3) (local.get $y3)))
          (v128.and (local.get $z4) (local.get $y4))))
        (local.set $zy (f64x2.extract_lane 0 (v128.or (local.get $x)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))))
        (local.set $m (f64x2.splat (call $max10 (local.get $z0) (local.get $z1) (local.get $z2) (local.get $z3) (local.get $z4))))
        (call $exp10 (f64x2.sub (local.get $z0) (local.get $m)) (f64x2.sub (local.get $z1) (local.get $m))
          (f64x2.sub (local.get $z2) (local.get $m)) (f64x2.sub (local.get $z3) (local.get $m))
          (f64x2.sub (local.get $z4) (local.get $m)))
        (local.set $z4)
        (local.set $z3)
        (local.set $z2)
        (local.set $z1)
        (local.set $z0)
        (local.set $s (call $sum10 (local.get $z0) (local.get $z1) (local.get $z2) (local.get $z3) (local.get $z4)))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $ex) (i32.const 24))))
        (f64.store (local.get $o) (local.get $s))
        (f64.store offset=8 (local.get $o) (f64x2.extract_lane 0 (local.get $m)))
        (f64.store offset=16 (local.get $o) (local.get $zy))
        ;; μ = e/s (0 below 2**-100), q = μ(1 − μ), r = μ − [c = y].
        (local.set $inv (f64x2.splat (f64.div (f64.const 1) (local.get $s))))
        (local.set $z0 (call $mu2 (local.get $z0) (local.get $inv)))
        (local.set $z1 (call $mu2 (local.get $z1) (local.get $inv)))
        (local.set $z2 (call $mu2 (local.get $z2) (local.get $inv)))
        (local.set $z3 (call $mu2 (local.get $z3) (local.get $inv)))
        (local.set $z4 (call $mu2 (local.get $z4) (local.get $inv)))
        (local.set $o (i32.add (local.get $mu) (i32.mul (local.get $ex) (i32.const 80))))
        (v128.store (local.get $o) (local.get $z0))
        (v128.store offset=16 (local.get $o) (local.get $z1))
        (v128.store offset=32 (local.get $o) (local.get $z2))
        (v128.store offset=48 (local.get $o) (local.get $z3))
        (v128.store offset=64 (local.get $o) (local.get $z4))
        (local.set $q0 (f64x2.mul (local.get $z0) (f64x2.sub (local.get $one) (local.get $z0))))
        (local.set $q1 (f64x2.mul (local.get $z1) (f64x2.sub (local.get $one) (local.get $z1))))
        (local.set $q2 (f64x2.mul (local.get $z2) (f64x2.sub (local.get $one) (local.get $z2))))
        (local.set $q3 (f64x2.mul (local.get $z3) (f64x2.sub (local.get $one) (local.get $z3))))
        (local.set $q4 (f64x2.mul (local.get $z4) (f64x2.sub (local.get $one) (local.get $z4))))
        (local.set $z0 (f64x2.sub (local.get $z0) (v128.and (local.get $y0) (local.get $one))))
        (local.set $z1 (f64x2.sub (local.get $z1) (v128.and (local.get $y1) (local.get $one))))
        (local.set $z2 (f64x2.sub (local.get $z2) (v128.and (local.get $y2) (local.get $one))))
        (local.set $z3 (f64x2.sub (local.get $z3) (v128.and (local.get $y3) (local.get $one))))
        (local.set $z4 (f64x2.sub (local.get $z4) (v128.and (local.get $y4) (local.get $one))))
        ;; g[j] += x r and h[j] += x² q for the singles, then for both
        ;; pixels of the pairs.
        (local.set $p (i32.add (local.get $pairs) (i32.mul
          (i32.load (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 12))))
        (local.set $sp (i32.add (local.get $singles) (i32.shl
          (i32.load (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 3))))
        (block $bwd1Done
          (loop $bwd1
            (br_if $bwd1Done (i32.ge_u (local.get $sp) (local.get $sEnd)))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load offset=4 (local.get $sp)))))
            (local.set $xx (f64x2.mul (local.get $x) (local.get $x)))
            (local.set $jo (i32.mul (i32.load16_u (local.get $sp)) (i32.const 80)))
            (local.set $o (i32.add (local.get $g) (local.get $jo)))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $x) (local.get $z0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z4))))
            (local.set $o (i32.add (local.get $h) (local.get $jo)))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q4))))
            (local.set $sp (i32.add (local.get $sp) (i32.const 8)))
            (br $bwd1)))
        (block $bwd2Done
          (loop $bwd2
            (br_if $bwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $x (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (local.get $p))))
            (local.set $w (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x)))
            (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
            (local.set $xx (f64x2.mul (local.get $x) (local.get $x)))
            (local.set $ww (f64x2.mul (local.get $w) (local.get $w)))
            (local.set $jo (i32.mul (i32.load16_u (local.get $p)) (i32.const 80)))
            (local.set $o (i32.add (local.get $g) (local.get $jo)))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $x) (local.get $z0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $x) (local.get $z4))))
            (v128.store offset=80 (local.get $o) (f64x2.add (v128.load offset=80 (local.get $o)) (f64x2.mul (local.get $w) (local.get $z0))))
            (v128.store offset=96 (local.get $o) (f64x2.add (v128.load offset=96 (local.get $o)) (f64x2.mul (local.get $w) (local.get $z1))))
            (v128.store offset=112 (local.get $o) (f64x2.add (v128.load offset=112 (local.get $o)) (f64x2.mul (local.get $w) (local.get $z2))))
            (v128.store offset=128 (local.get $o) (f64x2.add (v128.load offset=128 (local.get $o)) (f64x2.mul (local.get $w) (local.get $z3))))
            (v128.store offset=144 (local.get $o) (f64x2.add (v128.load offset=144 (local.get $o)) (f64x2.mul (local.get $w) (local.get $z4))))
            (local.set $o (i32.add (local.get $h) (local.get $jo)))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $q4))))
            (v128.store offset=80 (local.get $o) (f64x2.add (v128.load offset=80 (local.get $o)) (f64x2.mul (local.get $ww) (local.get $q0))))
            (v128.store offset=96 (local.get $o) (f64x2.add (v128.load offset=96 (local.get $o)) (f64x2.mul (local.get $ww) (local.get $q1))))
            (v128.store offset=112 (local.get $o) (f64x2.add (v128.load offset=112 (local.get $o)) (f64x2.mul (local.get $ww) (local.get $q2))))
            (v128.store offset=128 (local.get $o) (f64x2.add (v128.load offset=128 (local.get $o)) (f64x2.mul (local.get $ww) (local.get $q3))))
            (v128.store offset=144 (local.get $o) (f64x2.add (v128.load offset=144 (local.get $o)) (f64x2.mul (local.get $ww) (local.get $q4))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $bwd2)))
        (local.set $o (i32.add (local.get $g) (i32.mul (local.get $rows) (i32.const 80))))
        (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (local.get $z0)))
        (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (local.get $z1)))
        (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (local.get $z2)))
        (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (local.get $z3)))
        (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (local.get $z4)))
        (local.set $o (i32.add (local.get $h) (i32.mul (local.get $rows) (i32.const 80))))
        (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (local.get $q0)))
        (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (local.get $q1)))
        (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (local.get $q2)))
        (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (local.get $q3)))
        (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (local.get $q4)))
        (local.set $ex (i32.add (local.get $ex) (i32.const 1)))
        (br $examples)))
    (i32.const -1))

  ;; mu2 is two probabilities e·inv, 0 below 2**-100, as softmax.Softmax.
  (func $mu2 (param $e v128) (param $inv v128) (result v128)
    (local.set $e (f64x2.mul (local.get $e) (local.get $inv)))
    (v128.andnot (local.get $e) (f64x2.lt (local.get $e) (v128.const f64x2 0x1p-100 0x1p-100))))

  ;; hv is core/newton's hvRange on float32 pixels, widened: for the
  ;; examples 0..n−1 with probabilities μ at mu+80i it adds into out
  ;; (rows×10 then 10, float64) x ⊗ a, a = μ ⊙ (u − μ·u), u = Vᵀx the
  ;; "logits" of the vector vec (the same layout), in the order of newton's
  ;; logits: the examples come as softmax.Blocks (see grad), a single's
  ;; row of ten float64 is five vectors, a pair's two rows ten, against
  ;; (x1 x1) and (x2 x2). It returns -1, or the first example with a pixel
  ;; index not below rows (nothing of it written).
  (func (export "hv")
    (param $vec i32) (param $out i32) (param $mu i32)
    (param $pstart i32) (param $pairs i32) (param $sstart i32) (param $singles i32) (param $n i32) (param $rows i32)
    (result i32)
    (local $ex i32) (local $o i32) (local $bias i32) (local $rows1 i32)
    (local $p i32) (local $pEnd i32) (local $s i32) (local $sEnd i32)
    (local $x v128) (local $xx v128) (local $sv v128)
    (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128) (local $u4 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $a4 v128)
    (local.set $bias (i32.add (local.get $vec) (i32.mul (local.get $rows) (i32.const 80))))
    (local.set $rows1 (i32.sub (local.get $rows) (i32.const 1)))
    (block $done
      (loop $examples
        (br_if $done (i32.ge_u (local.get $ex) (local.get $n)))
        (local.set $o (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $p (i32.add (local.get $pairs) (i32.mul (i32.load (local.get $o)) (i32.const 12))))
        (local.set $pEnd (i32.add (local.get $pairs) (i32.mul (i32.load offset=4 (local.get $o)) (i32.const 12))))
        (local.set $o (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2))))
        (local.set $s (i32.add (local.get $singles) (i32.shl (i32.load (local.get $o)) (i32.const 3))))
        (local.set $sEnd (i32.add (local.get $singles) (i32.shl (i32.load offset=4 (local.get $o)) (i32.const 3))))
        (local.set $u0 (v128.load (local.get $bias)))
        (local.set $u1 (v128.load offset=16 (local.get $bias)))
        (local.set $u2 (v128.load offset=32 (local.get $bias)))
        (local.set $u3 (v128.load offset=48 (local.get $bias)))
        (local.set $u4 (v128.load offset=64 (local.get $bias)))
        (block $fwd1Done
          (loop $fwd1
            (br_if $fwd1Done (i32.ge_u (local.get $s) (local.get $sEnd)))
            (local.set $o (i32.load16_u (local.get $s)))
            (if (i32.ge_u (local.get $o) (local.get $rows)) (then (return (local.get $ex))))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load offset=4 (local.get $s)))))
            (local.set $o (i32.add (local.get $vec) (i32.mul (local.get $o) (i32.const 80))))
            (local.set $u0 (f64x2.add (local.get $u0) (f64x2.mul (local.get $x) (v128.load (local.get $o)))))
            (local.set $u1 (f64x2.add (local.get $u1) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $o)))))
            (local.set $u2 (f64x2.add (local.get $u2) (f64x2.mul (local.get $x) (v128.load offset=32 (local.get $o)))))
            (local.set $u3 (f64x2.add (local.get $u3) (f64x2.mul (local.get $x) (v128.load offset=48 (local.get $o)))))
            (local.set $u4 (f64x2.add (local.get $u4) (f64x2.mul (local.get $x) (v128.load offset=64 (local.get $o)))))
            (local.set $s (i32.add (local.get $s) (i32.const 8)))
            (br $fwd1)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $a4 (v128.const i32x4 0 0 0 0))
        (block $fwd2Done
          (loop $fwd2
            (br_if $fwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $o (i32.load16_u (local.get $p)))
            (if (i32.ge_u (local.get $o) (local.get $rows1)) (then (return (local.get $ex))))
            (local.set $x (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (local.get $p))))
            (local.set $xx (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x)))
            (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
            (local.set $o (i32.add (local.get $vec) (i32.mul (local.get $o) (i32.const 80))))
            (local.set $u0 (f64x2.add (local.get $u0) (f64x2.mul (local.get $x) (v128.load (local.get $o)))))
            (local.set $u1 (f64x2.add (local.get $u1) (f64x2.mul (local.get $x) (v128.load offset=16 (local.get $o)))))
            (local.set $u2 (f64x2.add (local.get $u2) (f64x2.mul (local.get $x) (v128.load offset=32 (local.get $o)))))
            (local.set $u3 (f64x2.add (local.get $u3) (f64x2.mul (local.get $x) (v128.load offset=48 (local.get $o)))))
            (local.set $u4 (f64x2.add (local.get $u4) (f64x2.mul (local.get $x) (v128.load offset=64 (local.get $o)))))
            (local.set $a0 (f64x2.add (local.get $a0) (f64x2.mul (local.get $xx) (v128.load offset=80 (local.get $o)))))
            (local.set $a1 (f64x2.add (local.get $a1) (f64x2.mul (local.get $xx) (v128.load offset=96 (local.get $o)))))
            (local.set $a2 (f64x2.add (local.get $a2) (f64x2.mul (local.get $xx) (v128.load offset=112 (local.get $o)))))
            (local.set $a3 (f64x2.add (local.get $a3) (f64x2.mul (local.get $xx) (v128.load offset=128 (local.get $o)))))
            (local.set $a4 (f64x2.add (local.get $a4) (f64x2.mul (local.get $xx) (v128.load offset=144 (local.get $o)))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $fwd2)))
        (local.set $u0 (f64x2.add (local.get $u0) (local.get $a0)))
        (local.set $u1 (f64x2.add (local.get $u1) (local.get $a1)))
        (local.set $u2 (f64x2.add (local.get $u2) (local.get $a2)))
        (local.set $u3 (f64x2.add (local.get $u3) (local.get $a3)))
        (local.set $u4 (f64x2.add (local.get $u4) (local.get $a4)))
        ;; s = Σ μ_c u_c in class order; a = μ ⊙ (u − s).
        (local.set $o (i32.add (local.get $mu) (i32.mul (local.get $ex) (i32.const 80))))
        (local.set $a0 (v128.load (local.get $o)))
        (local.set $a1 (v128.load offset=16 (local.get $o)))
        (local.set $a2 (v128.load offset=32 (local.get $o)))
        (local.set $a3 (v128.load offset=48 (local.get $o)))
        (local.set $a4 (v128.load offset=64 (local.get $o)))
        (local.set $sv (f64x2.splat (call $sum10
          (f64x2.mul (local.get $a0) (local.get $u0)) (f64x2.mul (local.get $a1) (local.get $u1))
          (f64x2.mul (local.get $a2) (local.get $u2)) (f64x2.mul (local.get $a3) (local.get $u3))
          (f64x2.mul (local.get $a4) (local.get $u4)))))
        (local.set $u0 (f64x2.mul (local.get $a0) (f64x2.sub (local.get $u0) (local.get $sv))))
        (local.set $u1 (f64x2.mul (local.get $a1) (f64x2.sub (local.get $u1) (local.get $sv))))
        (local.set $u2 (f64x2.mul (local.get $a2) (f64x2.sub (local.get $u2) (local.get $sv))))
        (local.set $u3 (f64x2.mul (local.get $a3) (f64x2.sub (local.get $u3) (local.get $sv))))
        (local.set $u4 (f64x2.mul (local.get $a4) (f64x2.sub (local.get $u4) (local.get $sv))))
        ;; out[j] += x a for the singles, then for both pixels of the pairs.
        (local.set $p (i32.add (local.get $pairs) (i32.mul
          (i32.load (i32.add (local.get $pstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 12))))
        (local.set $s (i32.add (local.get $singles) (i32.shl
          (i32.load (i32.add (local.get $sstart) (i32.shl (local.get $ex) (i32.const 2)))) (i32.const 3))))
        (block $bwd1Done
          (loop $bwd1
            (br_if $bwd1Done (i32.ge_u (local.get $s) (local.get $sEnd)))
            (local.set $x (f64x2.splat (f64.promote_f32 (f32.load offset=4 (local.get $s)))))
            (local.set $o (i32.add (local.get $out) (i32.mul (i32.load16_u (local.get $s)) (i32.const 80))))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $x) (local.get $u0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u4))))
            (local.set $s (i32.add (local.get $s) (i32.const 8)))
            (br $bwd1)))
        (block $bwd2Done
          (loop $bwd2
            (br_if $bwd2Done (i32.ge_u (local.get $p) (local.get $pEnd)))
            (local.set $x (f64x2.promote_low_f32x4 (v128.load64_zero offset=4 (local.get $p))))
            (local.set $xx (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $x) (local.get $x)))
            (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
            (local.set $o (i32.add (local.get $out) (i32.mul (i32.load16_u (local.get $p)) (i32.const 80))))
            (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $x) (local.get $u0))))
            (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u1))))
            (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u2))))
            (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u3))))
            (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (f64x2.mul (local.get $x) (local.get $u4))))
            (v128.store offset=80 (local.get $o) (f64x2.add (v128.load offset=80 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $u0))))
            (v128.store offset=96 (local.get $o) (f64x2.add (v128.load offset=96 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $u1))))
            (v128.store offset=112 (local.get $o) (f64x2.add (v128.load offset=112 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $u2))))
            (v128.store offset=128 (local.get $o) (f64x2.add (v128.load offset=128 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $u3))))
            (v128.store offset=144 (local.get $o) (f64x2.add (v128.load offset=144 (local.get $o)) (f64x2.mul (local.get $xx) (local.get $u4))))
            (local.set $p (i32.add (local.get $p) (i32.const 12)))
            (br $bwd2)))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $rows) (i32.const 80))))
        (v128.store (local.get $o) (f64x2.add (v128.load (local.get $o)) (local.get $u0)))
        (v128.store offset=16 (local.get $o) (f64x2.add (v128.load offset=16 (local.get $o)) (local.get $u1)))
        (v128.store offset=32 (local.get $o) (f64x2.add (v128.load offset=32 (local.get $o)) (local.get $u2)))
        (v128.store offset=48 (local.get $o) (f64x2.add (v128.load offset=48 (local.get $o)) (local.get $u3)))
        (v128.store offset=64 (local.get $o) (f64x2.add (v128.load offset=64 (local.get $o)) (local.get $u4)))
        (local.set $ex (i32.add (local.get $ex) (i32.const 1)))
        (br $examples)))
    (i32.const -1))
)
