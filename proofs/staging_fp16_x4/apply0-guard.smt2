; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[0], obligation guard
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |k'| () Int)
(declare-fun |c0'| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun m () Int)
(declare-fun |r0'| () Int)
(declare-fun |a:lane| () Int)
(assert
 (let ((?x1 (* 32 |r0'|)))
 (let ((?x2 (+ |a:lane| ?x1)))
 (let (($x3 (< ?x2 m)))
 (let (($x4 (>= ?x2 0)))
 (let (($x5 (and $x4 $x3 (>= (+ 7 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 7 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x6 (and $x4 $x3 (>= (+ 6 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 6 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x7 (and $x4 $x3 (>= (+ 5 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 5 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x8 (and $x4 $x3 (>= (+ 4 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 4 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x9 (and $x4 $x3 (>= (+ 3 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 3 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x10 (and $x4 $x3 (>= (+ 2 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 2 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let (($x11 (and $x4 $x3 (>= (+ 1 (* 8 |a:repeat0|) (* 64 |c0'|)) 0) (< (+ 1 (* 8 |a:repeat0|) (* 64 |c0'|)) (* 8 |k'|)))))
 (let ((?x12 (* 64 |c0'|)))
 (let ((?x13 (* 8 |a:repeat0|)))
 (let ((?x14 (+ ?x13 ?x12)))
 (let (($x15 (>= ?x14 0)))
 (let (($x16 (and $x4 $x3 $x15 (< ?x14 (* 8 |k'|)))))
 (let (($x17 (or (not $x16) (not $x11) (not $x10) (not $x9) (not $x8) (not $x7) (not $x6) (not $x5))))
 (or (and (or $x16 $x11 $x10 $x9 $x8 $x7 $x6 $x5) $x17))))))))))))))))))))
(assert
 (>= m 1))
(assert
 (<= m 4096))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 512))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 127))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 63))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 7))
(check-sat)
