; tilecheck obligation query: file examples/tma_inner_coord_unaligned_refuted.toml, apply[0], obligation tma_inner
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun c () Int)
(declare-fun |N'| () Int)
(assert
 (and (distinct (mod (* c 4) 16) 0) true))
(assert
 (>= |N'| 8))
(assert
 (<= |N'| 16384))
(assert
 (>= c 0))
(assert
 (<= c 65504))
(assert
 (<= (+ 32 (* (- 4) |N'|) c) 0))
(check-sat)
