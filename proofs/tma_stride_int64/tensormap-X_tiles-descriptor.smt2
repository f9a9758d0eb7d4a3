; tilecheck obligation query: file examples/tma_stride_int64.toml, tensormap X_tiles, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun W () Int)
(declare-fun H () Int)
(declare-fun C () Int)
(declare-fun N () Int)
(assert
 (let (($x1 (and (>= C (- 9223372036854775808)) (<= C 9223372036854775807) (>= W (- 9223372036854775808)) (<= W 9223372036854775807) (>= H (- 9223372036854775808)) (<= H 9223372036854775807) (>= N (- 9223372036854775808)) (<= N 9223372036854775807) (>= C (- 4611686018427387904)) (<= C 4611686018427387903) (>= (* C W) (- 4611686018427387904)) (<= (* C W) 4611686018427387903) (>= (* C H W) (- 4611686018427387904)) (<= (* C H W) 4611686018427387903))))
 (let (($x2 (and (>= C 0) (not (>= C 549755813888)) (>= (* C W) 0) (not (>= (* C W) 549755813888)) (>= (* C H W) 0) (not (>= (* C H W) 549755813888)))))
 (let (($x3 (= (mod C 8) 0)))
 (let (($x4 (and $x3 (= (mod (* C W) 8) 0) (= (mod (* C H W) 8) 0))))
 (let (($x5 (>= N 1)))
 (let (($x6 (>= H 1)))
 (let (($x7 (>= W 1)))
 (let (($x8 (and (>= C 1) (<= C 4294967296) $x7 (<= W 4294967296) $x6 (<= H 4294967296) $x5 (<= N 4294967296))))
 (or (not $x8) (not $x4) (not $x2) (not $x1)))))))))))
(assert
 (>= C 8))
(assert
 (<= C 512))
(assert
 (= (mod C 8) 0))
(assert
 (>= W 1))
(assert
 (<= W 4096))
(assert
 (>= H 1))
(assert
 (<= H 4096))
(assert
 (>= N 1))
(assert
 (<= N 64))
(check-sat)
