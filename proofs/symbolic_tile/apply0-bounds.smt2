; tilecheck obligation query: file examples/symbolic_tile.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |k'| () Int)
(declare-fun |r0'| () Int)
(declare-fun |c0'| () Int)
(declare-fun n () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let ((?x1 (* 4 |src:repeat1|)))
 (let ((?x2 (* 8 |c0'|)))
 (let ((?x3 (+ ?x2 (* 64 |k'| |r0'|) (* 8 |k'| |src:repeat0|) ?x1 |src:word|)))
 (let (($x4 (or (< ?x2 0) (> (+ 8 ?x2) (* 8 |k'|)) (< (* 8 |k'|) 1))))
 (let (($x5 (or (< (* 8 |r0'|) 0) (> (+ 8 (* 8 |r0'|)) n) (< n 1))))
 (let ((?x6 (+ (* 8 |dst:repeat0|) (* 4 |dst:repeat1|) |dst:word|)))
 (let (($x7 (>= ?x6 64)))
 (let (($x8 (or (< 0 0) (> 8 8) (< 8 1))))
 (or $x8 $x8 (< ?x6 0) $x7 $x5 $x4 (< ?x3 0)))))))))))
(assert
 (>= n 8))
(assert
 (<= n 1048576))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 8192))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 131071))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 8191))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 7))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 1))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 7))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 1))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(assert
 (<= (+ 8 (* (- 1) n) (* 8 |r0'|)) 0))
(assert
 (<= (+ 8 (* 8 |c0'|) (* (- 8) |k'|)) 0))
(assert
 (let ((?x9 (* |k'| |r0'|)))
 (>= ?x9 0)))
(assert
 (let ((?x9 (* |k'| |r0'|)))
 (<= ?x9 1073733632)))
(assert
 (let ((?x10 (* |k'| |src:repeat0|)))
 (>= ?x10 0)))
(assert
 (let ((?x10 (* |k'| |src:repeat0|)))
(<= ?x10 57344)))
(check-sat)
