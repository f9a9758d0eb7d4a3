; tilecheck obligation query: file examples/guard_swizzled_global_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun n () Int)
(declare-fun swz.y0~5 () Int)
(declare-fun swz.t0~6 () Int)
(declare-fun |src:lane| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.g~3 () Int)
(declare-fun swz.z0~4 () Int)
(assert
 (let (($x1 (>= (+ |src:lane| (* (- 4) swz.t0~6) (* 2 swz.y0~5)) n)))
 (let (($x2 (and (and (>= |src:lane| 0) (< |src:lane| n)) (or (< |src:lane| 0) (and (> |src:lane| (- n 4)) $x1)))))
 (let (($x3 (< 0 0)))
 (or (or $x3 (> 32 32) (< 32 1)) $x3 (>= 0 1) (< n 1) $x2)))))
(assert
 (>= n 1))
(assert
 (<= n 1048576))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= swz.h~1 0))
(assert
 (<= swz.h~1 1))
(assert
 (>= swz.r~2 0))
(assert
 (<= swz.r~2 1))
(assert
 (>= swz.g~3 0))
(assert
 (<= swz.g~3 1))
(assert
 (>= swz.z0~4 0))
(assert
 (<= swz.z0~4 1))
(assert
 (>= swz.y0~5 0))
(assert
 (<= swz.y0~5 1))
(assert
 (>= swz.t0~6 0))
(assert
 (<= swz.t0~6 1))
(assert
 (let ((?x4 (* (- 2) swz.z0~4)))
 (let ((?x5 (* (- 8) swz.y0~5)))
 (let ((?x6 (* (- 1) swz.r~2)))
 (let ((?x7 (* (- 16) swz.h~1)))
 (let ((?x8 (* (- 4) swz.g~3)))
 (= (+ |src:lane| ?x8 ?x7 ?x6 ?x5 ?x4) 0)))))))
(assert
 (>= (+ (* (- 1) swz.t0~6) swz.z0~4) 0))
(assert
 (>= (+ (* (- 1) swz.t0~6) swz.y0~5) 0))
(assert
 (>= (+ 1 swz.t0~6 (* (- 1) swz.y0~5) (* (- 1) swz.z0~4)) 0))
(check-sat)
