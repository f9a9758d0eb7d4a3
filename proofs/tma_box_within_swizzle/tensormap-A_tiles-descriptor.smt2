; tilecheck obligation query: file examples/tma_box_within_swizzle.toml, tensormap A_tiles, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun K () Int)
(declare-fun M () Int)
(assert
 (let (($x1 (not (and (>= K 1) (<= K 4294967296) (>= M 1) (<= M 4294967296)))))
 (or $x1 (not (= (mod K 8) 0)) (not (and (>= K 0) (not (>= K 549755813888)))))))
(assert
 (>= K 64))
(assert
 (<= K 65536))
(assert
 (= (mod K 64) 0))
(assert
 (>= M 128))
(assert
 (<= M 65536))
(assert
 (= (mod M 128) 0))
(check-sat)
