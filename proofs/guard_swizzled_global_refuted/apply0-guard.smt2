; tilecheck obligation query: file examples/guard_swizzled_global_refuted.toml, apply[0], obligation guard
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun n () Int)
(declare-fun |a:lane| () Int)
(assert
 (let (($x1 (and (or (and (>= |a:lane| 0) (< |a:lane| n))) (or (not (and (>= |a:lane| 0) (< |a:lane| n)))))))
 (or $x1)))
(assert
 (>= n 1))
(assert
 (<= n 1048576))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(check-sat)
