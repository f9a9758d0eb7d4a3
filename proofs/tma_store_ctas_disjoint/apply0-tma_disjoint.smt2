; tilecheck obligation query: file examples/tma_store_ctas_disjoint.toml, apply[0], obligation tma_disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun tma_da1 () Int)
(declare-fun tma_da0 () Int)
(declare-fun t () Int)
(declare-fun tma_db1 () Int)
(declare-fun tma_db0 () Int)
(declare-fun t@b () Int)
(assert
 (let ((?x1 (* 256 tma_da1)))
 (let ((?x2 (* 4 tma_da0)))
 (let ((?x3 (* 512 t)))
 (let ((?x4 (+ ?x3 ?x2 ?x1)))
 (let ((?x5 (* 256 tma_db1)))
 (let ((?x6 (* 4 tma_db0)))
 (let ((?x7 (* 512 t@b)))
 (let ((?x8 (+ ?x7 ?x6 ?x5)))
 (let ((?x9 (+ (* 2 t@b) tma_db1)))
 (let (($x10 (>= ?x9 0)))
 (let (($x11 (> 64 tma_db0)))
 (let (($x12 (>= tma_db0 0)))
 (let ((?x13 (+ (* 2 t) tma_da1)))
 (let (($x14 (>= ?x13 0)))
 (let (($x15 (> 64 tma_da0)))
 (let (($x16 (>= tma_da0 0)))
 (and (or (and (distinct t t@b) true)) $x15 $x16 $x15 (> 2 tma_da1) $x14 (> 64 ?x13) $x11 $x12 $x11 (> 2 tma_db1) $x10 (> 64 ?x9) (< (- ?x4 ?x8) 4) (< (- ?x8 ?x4) 4)))))))))))))))))))
(assert
 (>= t 0))
(assert
 (<= t 31))
(assert
 (>= t@b 0))
(assert
 (<= t@b 31))
(assert
 (>= tma_da0 0))
(assert
 (<= tma_da0 63))
(assert
 (>= tma_da1 0))
(assert
 (<= tma_da1 1))
(assert
 (>= tma_db0 0))
(assert
 (<= tma_db0 63))
(assert
 (>= tma_db1 0))
(assert
 (<= tma_db1 1))
(check-sat)
