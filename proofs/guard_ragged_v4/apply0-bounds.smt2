; tilecheck obligation query: file examples/guard_ragged_v4.toml, apply[0], obligation bounds
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
(declare-fun n () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let ((?x1 (* 4 |src:repeat0|)))
 (let ((?x2 (* 16 |c0'|)))
 (let ((?x3 (+ ?x2 (* 128 |k'| |r0'|) (* 4 |k'| |src:lane|) ?x1 |src:word|)))
 (let ((?x4 (* 32 |r0'|)))
 (let ((?x5 (+ ?x4 |src:lane|)))
 (let (($x6 (< ?x5 n)))
 (let (($x7 (>= ?x5 0)))
 (let ((?x8 (+ ?x2 ?x1)))
 (let (($x9 (>= ?x8 0)))
 (let (($x10 (and $x7 $x6 $x9 (< ?x8 (* 4 |k'|)) $x7 $x6 (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 4 |k'|)) $x7 $x6 (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 4 |k'|)) $x7 $x6 (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 4 |k'|)))))
 (let ((?x11 (+ (* 4 |dst:repeat0|) |dst:word|)))
 (let (($x12 (>= ?x11 16)))
 (let (($x13 (< 0 0)))
 (let (($x14 (or $x13 (> 4 4) (< 4 1))))
 (or (or $x13 (> 32 32) (< 32 1)) $x14 $x14 (< ?x11 0) $x12 (< n 1) (< (* 4 |k'|) 1) (and $x10 (or (< ?x3 0)))))))))))))))))))
(assert
 (>= n 1))
(assert
 (<= n 4096))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 1024))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 127))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 255))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 3))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(assert
 (let ((?x15 (* |k'| |r0'|)))
 (>= ?x15 0)))
(assert
 (let ((?x15 (* |k'| |r0'|)))
 (<= ?x15 130048)))
(assert
 (let ((?x16 (* |k'| |src:lane|)))
 (>= ?x16 0)))
(assert
 (let ((?x16 (* |k'| |src:lane|)))
(<= ?x16 31744)))
(check-sat)
