; tilecheck obligation query: file examples/wgmma_chain_k_advance_past_atom_refuted.toml, apply[3], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |b.C.g.q#1~8| () Int)
(declare-fun |a.C.g.q#1~6| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |b.C.g.q#0~7| () Int)
(declare-fun |a.C.g.q#0~5| () Int)
(declare-fun |b:repeat1| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |b:tid#0~3| () Int)
(declare-fun |a:tid#0~1| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(declare-fun |a:tid#1~2| () Int)
(declare-fun |b:tid#1~4| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
 (let (($x2 (= |a.C.g.q#1~6| |b.C.g.q#1~8|)))
 (let (($x3 (= |a:repeat0| |b:repeat0|)))
 (let (($x4 (= |a.C.g.q#0~5| |b.C.g.q#0~7|)))
 (let (($x5 (= |a:repeat1| |b:repeat1|)))
 (let (($x6 (= |a:tid#0~1| |b:tid#0~3|)))
 (let ((?x7 (+ (* 128 |b.C.g.q#0~7|) (* 2 |b.C.g.q#1~8|) (* 8 |b:repeat0|) (* 1024 |b:repeat1|) (* 2048 |b:tid#0~3|) |b:word|)))
 (let ((?x8 (* 2048 |a:tid#0~1|)))
 (let ((?x9 (* 1024 |a:repeat1|)))
 (let ((?x10 (* 8 |a:repeat0|)))
 (let ((?x11 (* 2 |a.C.g.q#1~6|)))
 (let ((?x12 (* 128 |a.C.g.q#0~5|)))
 (let (($x13 (= (+ ?x12 ?x11 ?x10 ?x9 ?x8 |a:word|) ?x7)))
 (let (($x14 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:repeat1| |b:repeat1|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x14 $x13) $x6 $x5 $x4 $x3 $x2 $x1))))))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 127))
(assert
 (>= |a:tid#0~1| 0))
(assert
 (<= |a:tid#0~1| 3))
(assert
 (>= |a:tid#1~2| 0))
(assert
 (<= |a:tid#1~2| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 1))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 1))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 127))
(assert
 (>= |b:tid#0~3| 0))
(assert
 (<= |b:tid#0~3| 3))
(assert
 (>= |b:tid#1~4| 0))
(assert
 (<= |b:tid#1~4| 31))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 15))
(assert
 (>= |b:repeat1| 0))
(assert
 (<= |b:repeat1| 1))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 1))
(assert
 (>= |a.C.g.q#0~5| 0))
(assert
 (<= |a.C.g.q#0~5| 7))
(assert
 (>= |a.C.g.q#1~6| 0))
(assert
 (<= |a.C.g.q#1~6| 3))
(assert
 (>= |b.C.g.q#0~7| 0))
(assert
 (<= |b.C.g.q#0~7| 7))
(assert
 (>= |b.C.g.q#1~8| 0))
(assert
 (<= |b.C.g.q#1~8| 3))
(assert
 (= (+ |a:thread| (* (- 32) |a:tid#0~1|) (* (- 1) |a:tid#1~2|)) 0))
(assert
 (= (+ |b:thread| (* (- 32) |b:tid#0~3|) (* (- 1) |b:tid#1~4|)) 0))
(assert
 (= (+ (* (- 4) |a.C.g.q#0~5|) (* (- 1) |a.C.g.q#1~6|) |a:tid#1~2|) 0))
(assert
 (= (+ (* (- 4) |b.C.g.q#0~7|) (* (- 1) |b.C.g.q#1~8|) |b:tid#1~4|) 0))
(check-sat)
