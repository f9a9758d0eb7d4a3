; tilecheck obligation query: file examples/tma_multicast_same_half_refuted.toml, apply[0], obligation tma_multicast
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun tma_kb1 () Int)
(declare-fun tma_kb0 () Int)
(declare-fun tma_ka1 () Int)
(declare-fun tma_ka0 () Int)
(declare-fun r@b () Int)
(declare-fun r () Int)
(assert
 (let ((?x1 (+ (* 64 tma_kb0) tma_kb1)))
 (let (($x2 (= (+ (* 64 tma_ka0) tma_ka1) ?x1)))
 (let (($x3 (or (= r@b 0) (= r@b 1))))
 (let (($x4 (= r 0)))
 (let (($x5 (or $x4 (= r 1))))
 (and (and (distinct r r@b) true) $x5 $x3 $x2)))))))
(assert
 (>= r 0))
(assert
 (<= r 1))
(assert
 (>= r@b 0))
(assert
 (<= r@b 1))
(assert
 (>= tma_ka0 0))
(assert
 (<= tma_ka0 63))
(assert
 (>= tma_ka1 0))
(assert
 (<= tma_ka1 63))
(assert
 (>= tma_kb0 0))
(assert
 (<= tma_kb0 63))
(assert
 (>= tma_kb1 0))
(assert
 (<= tma_kb1 63))
(assert
 (= r 0))
(check-sat)
