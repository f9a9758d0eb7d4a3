; tilecheck obligation query: file examples/tma_stride_1022_refuted.toml, tensormap B_tiles, obligation descriptor
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
