; tilecheck obligation query: file examples/half_packed_v4_b32.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun div~3 () Int)
(declare-fun |r0'| () Int)
(declare-fun div~1 () Int)
(declare-fun n () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |k'| () Int)
(declare-fun |c0'| () Int)
(declare-fun divr~2 () Int)
(declare-fun divr~4 () Int)
(assert
 (let ((?x1 (* div~3 |src:repeat0|)))
 (let (($x2 (or (< div~1 0) (> (+ 4 div~1) div~3) (< div~3 1))))
 (let (($x3 (or (< (* 8 |r0'|) 0) (> (+ 8 (* 8 |r0'|)) n) (< n 1))))
 (let ((?x4 (+ (* 4 |dst:repeat0|) |dst:word|)))
 (let (($x5 (>= ?x4 32)))
 (or (or (< 0 0) (> 8 8) (< 8 1)) (or (< 0 0) (> 4 4) (< 4 1)) (< ?x4 0) $x5 $x3 $x2 (< (+ div~1 (* 8 div~3 |r0'|) ?x1 |src:word|) 0))))))))
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
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= div~1 0))
(assert
 (<= div~1 32764))
(assert
 (>= divr~2 0))
(assert
 (<= divr~2 1))
(assert
 (>= div~3 4))
(assert
 (<= div~3 32768))
(assert
 (>= divr~4 0))
(assert
 (<= divr~4 1))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(assert
 (= (+ (* 8 |c0'|) (* (- 1) divr~2) (* (- 2) div~1)) 0))
(assert
 (= (+ (* (- 1) divr~4) (* (- 2) div~3) (* 8 |k'|)) 0))
(assert
 (<= (+ 8 (* (- 1) n) (* 8 |r0'|)) 0))
(assert
 (<= (+ 8 (* 8 |c0'|) (* (- 8) |k'|)) 0))
(assert
 (let ((?x6 (* div~3 |r0'|)))
 (>= ?x6 0)))
(assert
 (let ((?x6 (* div~3 |r0'|)))
 (<= ?x6 4294934528)))
(assert
 (let ((?x1 (* div~3 |src:repeat0|)))
 (>= ?x1 0)))
(assert
 (let ((?x1 (* div~3 |src:repeat0|)))
(<= ?x1 229376)))
(check-sat)
