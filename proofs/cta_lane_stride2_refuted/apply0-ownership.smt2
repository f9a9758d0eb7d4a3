; tilecheck obligation query: file examples/cta_lane_stride2_refuted.toml, apply[0], obligation ownership
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(assert
 (let (($x1 (= (+ (+ (* 32 |a:warp|) (* 2 |a:lane|)) 0) (+ (* 32 |a:warp|) |a:lane|))))
 (not (and $x1))))
(assert
 (>= |a:warp| 0))
(assert
 (<= |a:warp| 3))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(check-sat)
