; tilecheck obligation query: file examples/wgmma_chain_swizzle_mismatch_refuted.toml, apply[3], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.C.g.q#1~2| () Int)
(declare-fun |dst.C.g.q#0~1| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x1 (+ (* 4 |src:repeat0|) (* 2 |src:repeat1|) |src:word|)))
 (let (($x2 (>= ?x1 64)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 128 128) (< 128 1))))
 (let (($x5 (or $x3 (> 64 64) (< 64 1))))
 (let ((?x6 (+ (* 128 |dst.C.g.q#0~1|) (* 2 |dst.C.g.q#1~2|) (* 8 |dst:repeat0|) (* 1024 |dst:repeat1|) (* 2048 |dst:warp|) |dst:word|)))
 (let (($x7 (>= ?x6 8192)))
 (or $x5 $x4 (< ?x6 0) $x7 $x5 $x4 (< ?x1 0) $x2)))))))))
(assert
 (>= |dst:warp| 0))
(assert
 (<= |dst:warp| 3))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 15))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 1))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 1))
(assert
 (>= |dst.C.g.q#0~1| 0))
(assert
 (<= |dst.C.g.q#0~1| 7))
(assert
 (>= |dst.C.g.q#1~2| 0))
(assert
 (<= |dst.C.g.q#1~2| 3))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 15))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 1))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 1))
(assert
 (= (+ (* (- 4) |dst.C.g.q#0~1|) (* (- 1) |dst.C.g.q#1~2|) |dst:lane|) 0))
(check-sat)
