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
 (let ((?x24 (* 4 |src:repeat1|)))
 (let ((?x141 (* |k'| |src:repeat0|)))
 (let ((?x65 (* 8 ?x141)))
 (let ((?x14 (* |k'| |r0'|)))
 (let ((?x116 (* 64 ?x14)))
 (let ((?x112 (* 8 |c0'|)))
 (let ((?x277 (+ ?x112 ?x116 ?x65 ?x24 |src:word|)))
 (let (($x33 (or (< ?x112 0) (> (+ 8 ?x112) (* 8 |k'|)) (< (* 8 |k'|) 1))))
 (let (($x139 (or (< (* 8 |r0'|) 0) (> (+ 8 (* 8 |r0'|)) n) (< n 1))))
 (let ((?x266 (* 4 |dst:repeat1|)))
 (let ((?x170 (* 8 |dst:repeat0|)))
 (let ((?x162 (+ ?x170 ?x266 |dst:word|)))
 (let (($x34 (>= ?x162 64)))
 (let (($x132 (or (< 0 0) (> 8 8) (< 8 1))))
 (or $x132 $x132 (< ?x162 0) $x34 $x139 $x33 (< ?x277 0)))))))))))))))))
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
 (let ((?x14 (* |k'| |r0'|)))
 (>= ?x14 0)))
(assert
 (let ((?x14 (* |k'| |r0'|)))
 (<= ?x14 1073733632)))
(assert
 (let ((?x141 (* |k'| |src:repeat0|)))
 (>= ?x141 0)))
(assert
 (let ((?x141 (* |k'| |src:repeat0|)))
(<= ?x141 57344)))
(check-sat)
