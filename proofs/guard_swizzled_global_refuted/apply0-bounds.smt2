; tilecheck obligation query: file examples/guard_swizzled_global_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun n () Int)
(declare-fun swz.y0~5 () Int)
(declare-fun swz.t0~6 () Int)
(declare-fun |src:lane| () Int)
(declare-fun bounds.m.src () Int)
(declare-fun bounds.rho.src () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.g~3 () Int)
(declare-fun swz.z0~4 () Int)
(assert
 (let (($x1 (>= (+ |src:lane| (* (- 4) swz.t0~6) (* 2 swz.y0~5)) n)))
 (let ((?x2 (* 4 bounds.m.src)))
 (let (($x3 (>= |src:lane| ?x2)))
 (let (($x4 (>= bounds.rho.src 1)))
 (let (($x5 (= n (+ ?x2 bounds.rho.src))))
 (let (($x6 (or (< |src:lane| 0) (and (and $x5 $x4 (< bounds.rho.src 4) $x3) $x1))))
 (let (($x7 (< 0 0)))
 (or (or $x7 (> 32 32) (< 32 1)) $x7 (>= 0 1) (< n 1) (and (and (>= |src:lane| 0) (< |src:lane| n)) $x6))))))))))
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
 (let ((?x8 (* (- 2) swz.z0~4)))
 (let ((?x9 (* (- 8) swz.y0~5)))
 (let ((?x10 (* (- 1) swz.r~2)))
 (let ((?x11 (* (- 16) swz.h~1)))
 (let ((?x12 (* (- 4) swz.g~3)))
 (= (+ |src:lane| ?x12 ?x11 ?x10 ?x9 ?x8) 0)))))))
(assert
 (>= (+ (* (- 1) swz.t0~6) swz.z0~4) 0))
(assert
 (>= (+ (* (- 1) swz.t0~6) swz.y0~5) 0))
(assert
 (>= (+ 1 swz.t0~6 (* (- 1) swz.y0~5) (* (- 1) swz.z0~4)) 0))
(check-sat)
