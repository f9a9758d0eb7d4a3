; tilecheck obligation query: file examples/wgmma_epilogue_pairing_refuted.toml, apply[0], obligation ownership
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(declare-fun subr~6 () Int)
(declare-fun |a.D.g.q#0~1| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a.D.g.q#1~2| () Int)
(declare-fun sub~3 () Int)
(declare-fun subr~4 () Int)
(declare-fun sub~5 () Int)
(assert
 (let (($x1 (= (+ (+ (* 32 |a:warp|) (+ (* 4 |a.D.g.q#0~1|) subr~6)) 0) (+ (* 32 |a:warp|) |a:lane|))))
 (not (and $x1))))
(assert
 (>= |a:warp| 0))
(assert
 (<= |a:warp| 3))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 1))
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
 (<= sub~3 63))
(assert
 (>= subr~4 0))
(assert
 (<= subr~4 1))
(assert
 (>= sub~5 0))
(assert
 (<= sub~5 15))
(assert
 (>= subr~6 0))
(assert
 (<= subr~6 3))
(assert
 (= (+ (* (- 4) |a.D.g.q#0~1|) (* (- 1) |a.D.g.q#1~2|) |a:lane|) 0))
(assert
 (let ((?x2 (* 4 |a:word|)))
 (let ((?x3 (* 8 |a:repeat0|)))
 (= (+ |a.D.g.q#1~2| ?x3 ?x2 (* (- 1) subr~4) (* (- 2) sub~3)) 0))))
(assert
 (= (+ (* (- 1) subr~6) sub~3 (* (- 4) sub~5)) 0))
(check-sat)
