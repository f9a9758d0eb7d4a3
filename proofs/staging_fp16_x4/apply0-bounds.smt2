; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[0], obligation bounds
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
 (let ((?x4 (* 32 |r0'|)))
 (let ((?x5 (+ ?x4 |src:lane|)))
 (let (($x6 (< ?x5 m)))
 (let (($x7 (>= ?x5 0)))
 (let ((?x8 (+ ?x2 ?x1)))
 (let (($x9 (>= ?x8 0)))
 (let (($x10 (and $x7 $x6 $x9 (< ?x8 (* 8 |k'|)) $x7 $x6 (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 4 ?x2 ?x1) 0) (< (+ 4 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 5 ?x2 ?x1) 0) (< (+ 5 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 6 ?x2 ?x1) 0) (< (+ 6 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 7 ?x2 ?x1) 0) (< (+ 7 ?x2 ?x1) (* 8 |k'|)))))
 (let ((?x11 (+ (* 64 |dst:lane|) (* 8 |dst:repeat0|) |dst:word|)))
 (let (($x12 (>= ?x11 2048)))
 (or (or (< 0 0) (> 32 32) (< 32 1)) (or (< 0 0) (> 64 64) (< 64 1)) (< ?x11 0) $x12 (< m 1) (< (* 8 |k'|) 1) (and $x10 (or (< ?x3 0)))))))))))))))))
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
 (let ((?x13 (* |k'| |r0'|)))
 (>= ?x13 0)))
(assert
 (let ((?x13 (* |k'| |r0'|)))
 (<= ?x13 65024)))
(assert
 (let ((?x14 (* |k'| |src:lane|)))
 (>= ?x14 0)))
(assert
 (let ((?x14 (* |k'| |src:lane|)))
(<= ?x14 15872)))
(check-sat)
