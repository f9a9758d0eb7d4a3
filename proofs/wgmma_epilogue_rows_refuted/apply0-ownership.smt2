; tilecheck obligation query: file examples/wgmma_epilogue_rows_refuted.toml, apply[0], obligation ownership
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(declare-fun subr~4 () Int)
(declare-fun |a.D.g.q#1~2| () Int)
(declare-fun sub~5 () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a.D.g.q#0~1| () Int)
(declare-fun sub~3 () Int)
(declare-fun subr~6 () Int)
(assert
 (let ((?x1 (+ (* 32 |a:warp|) |a:lane|)))
 (let (($x2 (= (+ (+ (* 32 sub~5) (+ |a.D.g.q#1~2| (* 4 subr~4))) 0) ?x1)))
 (not (and $x2)))))
(assert
 (>= |a:warp| 0))
(assert
 (<= |a:warp| 3))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 1))
(assert
 (>= |a.D.g.q#0~1| 0))
(assert
 (<= |a.D.g.q#0~1| 7))
(assert
 (>= |a.D.g.q#1~2| 0))
(assert
 (<= |a.D.g.q#1~2| 3))
(assert
 (>= sub~3 0))
(assert
 (<= sub~3 7))
(assert
 (>= subr~4 0))
(assert
 (<= subr~4 7))
(assert
 (>= sub~5 0))
(assert
 (<= sub~5 3))
(assert
 (>= subr~6 0))
(assert
 (<= subr~6 1))
(assert
 (= (+ (* (- 4) |a.D.g.q#0~1|) (* (- 1) |a.D.g.q#1~2|) |a:lane|) 0))
(assert
 (let ((?x3 (* (- 1) subr~4)))
 (let ((?x4 (* 16 |a:warp|)))
 (let ((?x5 (* 2 |a.D.g.q#0~1|)))
 (= (+ ?x5 |a:repeat1| ?x4 ?x3 (* (- 8) sub~3)) 0)))))
(assert
 (= (+ (* (- 1) subr~6) sub~3 (* (- 2) sub~5)) 0))
(check-sat)
