;; The training worker's batch gradient in WebAssembly SIMD.
;;
;; Go's WebAssembly port emits no SIMD, so the worker (wasm/worker) runs
;; this module beside its Go code when the browser can: it works on the Go
;; program's own memory, which it imports, through the pointers Go passes.
;; It computes exactly what core/softmax.Grad's loop computes for float32,
;; bit for bit: every f32x4 lane does the scalar code's IEEE operations in
;; the same order, and $exp repeats core/internal/fmath.Exp operation by
;; operation. The worker checks that on every start against the Go code and
;; uses the Go code if they ever differ.
;;
;; Layout (see core/softmax): weights are rows×10 float32, a pixel's ten
;; weights adjacent, so a row is three vectors: classes 0-3, 4-7 and 8-9
;; (the last loaded and stored as 64 bits).
(module
  (import "env" "mem" (memory 0))

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

  ;; grad adds into gw (rows×10) and gb (10) the unnormalised gradient of
  ;; the cross-entropy of the examples at positions batch[0..n) and writes,
  ;; for the k-th, {s f64, m f32, zy f32} at out+16k: the sum of
  ;; exp(z−max), the maximum logit and the true class's logit, from which Go
  ;; adds up the loss. tmp is 128 bytes of scratch. Examples are Go's
  ;; softmax.Examples: start int32[], index uint16[], value float32[],
  ;; labels uint8[]. It returns -1, or the k of the first example with a
  ;; pixel index not below rows (then nothing of that example is written).
  (func (export "grad")
    (param $w i32) (param $b i32) (param $gw i32) (param $gb i32)
    (param $start i32) (param $index i32) (param $value i32) (param $labels i32)
    (param $batch i32) (param $n i32) (param $rows i32) (param $out i32) (param $tmp i32)
    (result i32)
    (local $k i32) (local $ex i32) (local $t i32) (local $end i32) (local $j i32) (local $o i32)
    (local $y i32) (local $c i32)
    (local $v v128) (local $z0 v128) (local $z1 v128) (local $z2 v128)
    (local $m f32) (local $zc f32) (local $s f64) (local $e f64) (local $inv f64) (local $p f64)
    (block $done
      (loop $examples
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $ex (i32.load (i32.add (local.get $batch) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $t (i32.load (i32.add (local.get $start) (i32.shl (local.get $ex) (i32.const 2)))))
        (local.set $end (i32.load offset=4 (i32.add (local.get $start) (i32.shl (local.get $ex) (i32.const 2)))))
        (local.set $y (i32.load8_u (i32.add (local.get $labels) (local.get $ex))))

        ;; Check every pixel index first: nothing is written for a bad one.
        (local.set $c (local.get $t))
        (block $checked
          (loop $check
            (br_if $checked (i32.ge_u (local.get $c) (local.get $end)))
            (if (i32.ge_u
                  (i32.load16_u (i32.add (local.get $index) (i32.shl (local.get $c) (i32.const 1))))
                  (local.get $rows))
              (then (return (local.get $k))))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))
            (br $check)))

        ;; z = b + Σ value·w[index]
        (local.set $z0 (v128.load (local.get $b)))
        (local.set $z1 (v128.load offset=16 (local.get $b)))
        (local.set $z2 (v128.load64_zero offset=32 (local.get $b)))
        (local.set $c (local.get $t))
        (block $fwdDone
          (loop $fwd
            (br_if $fwdDone (i32.ge_u (local.get $c) (local.get $end)))
            (local.set $j (i32.load16_u (i32.add (local.get $index) (i32.shl (local.get $c) (i32.const 1)))))
            (local.set $v (f32x4.splat (f32.load (i32.add (local.get $value) (i32.shl (local.get $c) (i32.const 2))))))
            (local.set $o (i32.add (local.get $w) (i32.mul (local.get $j) (i32.const 40))))
            (local.set $z0 (f32x4.add (local.get $z0) (f32x4.mul (local.get $v) (v128.load (local.get $o)))))
            (local.set $z1 (f32x4.add (local.get $z1) (f32x4.mul (local.get $v) (v128.load offset=16 (local.get $o)))))
            (local.set $z2 (f32x4.add (local.get $z2) (f32x4.mul (local.get $v) (v128.load64_zero offset=32 (local.get $o)))))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))
            (br $fwd)))
        (v128.store (local.get $tmp) (local.get $z0))
        (v128.store offset=16 (local.get $tmp) (local.get $z1))
        (v128.store64_lane offset=32 0 (local.get $tmp) (local.get $z2))

        ;; m = max z, the first one on ties, as Go's loop.
        (local.set $m (f32.load (local.get $tmp)))
        (local.set $c (i32.const 1))
        (loop $max
          (local.set $zc (f32.load (i32.add (local.get $tmp) (i32.shl (local.get $c) (i32.const 2)))))
          (if (f32.gt (local.get $zc) (local.get $m)) (then (local.set $m (local.get $zc))))
          (local.set $c (i32.add (local.get $c) (i32.const 1)))
          (br_if $max (i32.lt_u (local.get $c) (i32.const 10))))
        (f32.store offset=12
          (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 4)))
          (f32.load (i32.add (local.get $tmp) (i32.shl (local.get $y) (i32.const 2)))))
        (f32.store offset=8 (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 4))) (local.get $m))

        ;; e_c = exp(z_c − m) (kept at tmp+48), s = Σ e_c, in class order.
        (local.set $s (f64.const 0))
        (local.set $c (i32.const 0))
        (loop $exps
          (local.set $e (call $exp (f64.promote_f32
            (f32.sub (f32.load (i32.add (local.get $tmp) (i32.shl (local.get $c) (i32.const 2)))) (local.get $m)))))
          (f64.store offset=48 (i32.add (local.get $tmp) (i32.shl (local.get $c) (i32.const 3))) (local.get $e))
          (local.set $s (f64.add (local.get $s) (local.get $e)))
          (local.set $c (i32.add (local.get $c) (i32.const 1)))
          (br_if $exps (i32.lt_u (local.get $c) (i32.const 10))))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $k) (i32.const 4))) (local.get $s))

        ;; h_c = e_c/s (0 below 2**-100), then h_y − 1: the error signal.
        (local.set $inv (f64.div (f64.const 1) (local.get $s)))
        (local.set $c (i32.const 0))
        (loop $probs
          (local.set $p (f64.mul
            (f64.load offset=48 (i32.add (local.get $tmp) (i32.shl (local.get $c) (i32.const 3))))
            (local.get $inv)))
          (if (f64.lt (local.get $p) (f64.const 0x1p-100)) (then (local.set $p (f64.const 0))))
          (f32.store (i32.add (local.get $tmp) (i32.shl (local.get $c) (i32.const 2))) (f32.demote_f64 (local.get $p)))
          (local.set $c (i32.add (local.get $c) (i32.const 1)))
          (br_if $probs (i32.lt_u (local.get $c) (i32.const 10))))
        (local.set $o (i32.add (local.get $tmp) (i32.shl (local.get $y) (i32.const 2))))
        (f32.store (local.get $o) (f32.sub (f32.load (local.get $o)) (f32.const 1)))

        ;; gw[index] += value·d
        (local.set $z0 (v128.load (local.get $tmp)))
        (local.set $z1 (v128.load offset=16 (local.get $tmp)))
        (local.set $z2 (v128.load64_zero offset=32 (local.get $tmp)))
        (local.set $c (local.get $t))
        (block $bwdDone
          (loop $bwd
            (br_if $bwdDone (i32.ge_u (local.get $c) (local.get $end)))
            (local.set $j (i32.load16_u (i32.add (local.get $index) (i32.shl (local.get $c) (i32.const 1)))))
            (local.set $v (f32x4.splat (f32.load (i32.add (local.get $value) (i32.shl (local.get $c) (i32.const 2))))))
            (local.set $o (i32.add (local.get $gw) (i32.mul (local.get $j) (i32.const 40))))
            (v128.store (local.get $o)
              (f32x4.add (v128.load (local.get $o)) (f32x4.mul (local.get $v) (local.get $z0))))
            (v128.store offset=16 (local.get $o)
              (f32x4.add (v128.load offset=16 (local.get $o)) (f32x4.mul (local.get $v) (local.get $z1))))
            (v128.store64_lane offset=32 0 (local.get $o)
              (f32x4.add (v128.load64_zero offset=32 (local.get $o)) (f32x4.mul (local.get $v) (local.get $z2))))
            (local.set $c (i32.add (local.get $c) (i32.const 1)))
            (br $bwd)))

        ;; gb += d
        (v128.store (local.get $gb) (f32x4.add (v128.load (local.get $gb)) (local.get $z0)))
        (v128.store offset=16 (local.get $gb) (f32x4.add (v128.load offset=16 (local.get $gb)) (local.get $z1)))
        (v128.store64_lane offset=32 0 (local.get $gb)
          (f32x4.add (v128.load64_zero offset=32 (local.get $gb)) (local.get $z2)))

        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $examples)))
    (i32.const -1))
)
