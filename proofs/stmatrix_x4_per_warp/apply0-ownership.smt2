; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation ownership
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:lane| () Int)
(declare-fun |a.R.g.q#1~2| () Int)
(declare-fun |a.R.g.q#0~1| () Int)
(assert
 (let (($x1 (= 0 0)))
 (let (($x2 (= (+ (* 4 |a.R.g.q#0~1|) |a.R.g.q#1~2|) |a:lane|)))
 (not (and $x2 $x1 $x1)))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a.R.g.q#0~1| 0))
(assert
 (<= |a.R.g.q#0~1| 7))
(assert
 (>= |a.R.g.q#1~2| 0))
(assert
 (<= |a.R.g.q#1~2| 3))
(assert
 (= (+ (* (- 4) |a.R.g.q#0~1|) (* (- 1) |a.R.g.q#1~2|) |a:lane|) 0))
(check-sat)
