; tilecheck obligation query: file examples/tma_box_wider_than_swizzle_refuted.toml, tensormap A_tiles, obligation descriptor
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun K () Int)
(declare-fun M () Int)
(assert
 true)
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
