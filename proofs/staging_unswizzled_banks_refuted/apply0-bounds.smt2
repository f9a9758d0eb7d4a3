; tilecheck obligation query: file examples/staging_unswizzled_banks_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |k'| () Int)
(declare-fun |r0'| () Int)
(declare-fun |c0'| () Int)
(declare-fun m () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x1 (* 8 |src:repeat0|)))
 (let ((?x2 (* 64 |c0'|)))
 (let ((?x3 (+ ?x2 (* 256 |k'| |r0'|) (* 8 |k'| |src:lane|) ?x1 |src:word|)))
 (let ((?x4 (+ (* 32 |r0'|) |src:lane|)))
 (let (($x5 (< ?x4 m)))
 (let (($x6 (>= ?x4 0)))
 (let ((?x7 (+ ?x2 ?x1)))
 (let (($x8 (>= ?x7 0)))
 (let (($x9 (and $x6 $x5 $x8 (< ?x7 (* 8 |k'|)) $x6 $x5 (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 4 ?x2 ?x1) 0) (< (+ 4 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 5 ?x2 ?x1) 0) (< (+ 5 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 6 ?x2 ?x1) 0) (< (+ 6 ?x2 ?x1) (* 8 |k'|)) $x6 $x5 (>= (+ 7 ?x2 ?x1) 0) (< (+ 7 ?x2 ?x1) (* 8 |k'|)))))
 (let ((?x10 (+ (* 64 |dst:lane|) (* 8 |dst:repeat0|) |dst:word|)))
 (let (($x11 (>= ?x10 2048)))
 (or (or (< 0 0) (> 32 32) (< 32 1)) (or (< 0 0) (> 64 64) (< 64 1)) (< ?x10 0) $x11 (< m 1) (< (* 8 |k'|) 1) (and $x9 (or (< ?x3 0))))))))))))))))
(assert
 (>= m 1))
(assert
 (<= m 4096))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 512))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 127))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 63))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 7))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(assert
 (let ((?x12 (* |k'| |r0'|)))
 (>= ?x12 0)))
(assert
 (let ((?x12 (* |k'| |r0'|)))
 (<= ?x12 65024)))
(assert
 (let ((?x13 (* |k'| |src:lane|)))
 (>= ?x13 0)))
(assert
 (let ((?x13 (* |k'| |src:lane|)))
(<= ?x13 15872)))
(check-sat)
