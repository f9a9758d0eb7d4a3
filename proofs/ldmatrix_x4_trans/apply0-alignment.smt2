; tilecheck obligation query: file examples/ldmatrix_x4_trans.toml, apply[0], obligation alignment
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun ldsm.t~3 () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun |a:lane| () Int)
(declare-fun ldsm.tr~4 () Int)
(declare-fun |a.S.g.q#1~6| () Int)
(assert
 (and (distinct (mod (+ (* 2 |a.S.g.q#0~5|) (* 14 ldsm.t~3)) 16) 0) true))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= ldsm.t~3 0))
(assert
 (<= ldsm.t~3 7))
(assert
 (>= ldsm.tr~4 0))
(assert
 (<= ldsm.tr~4 3))
(assert
 (>= |a.S.g.q#0~5| 0))
(assert
 (<= |a.S.g.q#0~5| 7))
(assert
 (>= |a.S.g.q#1~6| 0))
(assert
 (<= |a.S.g.q#1~6| 3))
(assert
 (= (+ |a:lane| (* (- 1) ldsm.tr~4) (* (- 4) ldsm.t~3)) 0))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~5|) (* (- 1) |a.S.g.q#1~6|) |a:lane|) 0))
(check-sat)
