//go:build !purego

#include "textflag.h"

// The float32 kernels of kernels.go with SSE: each pixel's ten weights are
// three vectors (classes 0-3, 4-7 and 8-9), so one MULPS and one ADDPS do
// the work of four scalar steps. Every lane does the same IEEE operations,
// in the same order, as the scalar Go code, so the results are bit for bit
// the same (SSE2 is part of amd64; no FMA is used).

// A row of ten float32 is 40 bytes, three vectors: classes 0-3 at 0, 4-7
// at 16 and 8-9 at 32, the last moved with MOVSD (two lanes, lanes 2 and
// 3 zero).

// LOADK loads the ten float32 at p into X4, X5 and X6.
#define LOADK(p) \
	MOVUPS 0(p), X4; \
	MOVUPS 16(p), X5; \
	MOVSD 32(p), X6

// STOREK stores X4, X5 and X6 as the ten float32 at p.
#define STOREK(p) \
	MOVUPS X4, 0(p); \
	MOVUPS X5, 16(p); \
	MOVSD X6, 32(p)

// SPLAT loads the float32 at src into all four lanes of x.
#define SPLAT(src, x) \
	MOVSS src, x; \
	SHUFPS $0, x, x

// ROWBYTES turns the row number in r into its byte offset, 40·r.
#define ROWBYTES(r) \
	LEAQ (r)(r*4), r; \
	SHLQ $3, r

// MULADD adds x times the vector at src, moved by mov into tmp, into acc.
#define MULADD(mov, src, x, tmp, acc) \
	mov src, tmp; \
	MULPS x, tmp; \
	ADDPS tmp, acc

// ADDROW adds X0 times the row at SI+R10 into X4, X5 and X6.
#define ADDROW \
	MULADD(MOVUPS, 0(SI)(R10*1), X0, X1, X4); \
	MULADD(MOVUPS, 16(SI)(R10*1), X0, X2, X5); \
	MULADD(MOVSD, 32(SI)(R10*1), X0, X3, X6)

// SCATTER adds X0 times d into the vector at dst, moved by mov.
#define SCATTER(mov, d, dst) \
	MOVAPS X0, X1; \
	MULPS d, X1; \
	mov dst, X2; \
	ADDPS X1, X2; \
	mov X2, dst

// func logitsSSE(z *[10]float32, w *float32, rows int, b *[10]float32, index *uint16, value *float32, n int) (bad int)
TEXT ·logitsSSE(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ b+24(FP), DX
	MOVQ index+32(FP), BX
	MOVQ value+40(FP), R9
	MOVQ n+48(FP), CX
	LOADK(DX)
	XORQ AX, AX

logitsLoop:
	CMPQ AX, CX
	JGE logitsDone
	MOVWQZX (BX)(AX*2), R10
	CMPQ R10, R8
	JAE logitsBad
	SPLAT((R9)(AX*4), X0)
	ROWBYTES(R10)
	ADDROW
	INCQ AX
	JMP logitsLoop

logitsDone:
	STOREK(DI)
	MOVQ $-1, bad+56(FP)
	RET

logitsBad:
	MOVQ AX, bad+56(FP)
	RET

// func scatterSSE(grad *float32, rows int, index *uint16, value *float32, n int, d *[10]float32) (bad int)
TEXT ·scatterSSE(SB), NOSPLIT, $0-56
	MOVQ grad+0(FP), DI
	MOVQ rows+8(FP), R8
	MOVQ index+16(FP), BX
	MOVQ value+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ d+40(FP), DX
	LOADK(DX)
	XORQ AX, AX

scatterLoop:
	CMPQ AX, CX
	JGE scatterDone
	MOVWQZX (BX)(AX*2), R10
	CMPQ R10, R8
	JAE scatterBad
	SPLAT((R9)(AX*4), X0)
	ROWBYTES(R10)
	SCATTER(MOVUPS, X4, 0(DI)(R10*1))
	SCATTER(MOVUPS, X5, 16(DI)(R10*1))
	SCATTER(MOVSD, X6, 32(DI)(R10*1))
	INCQ AX
	JMP scatterLoop

scatterDone:
	MOVQ $-1, bad+48(FP)
	RET

scatterBad:
	MOVQ AX, bad+48(FP)
	RET

// func pairLogitsSSE(z *[10]float32, w *float32, rows int, b *[10]float32, pairs *Pair, np int, singles *Single, ns int) (bad int)
//
// The singles add into b's three vectors (X4, X5, X6), then the pairs
// into five: the first pixels go on in X4, X5 and X6's lanes 0 and 1
// (classes 8 and 9), the second pixels' classes 0 and 1 in X6's lanes 2
// and 3, 2-5 in X7 and 6-9 in X8; a pair's twenty weights are the five
// vectors at w[j*10:j*10+20]. Then z = firsts + seconds, lane by lane.
TEXT ·pairLogitsSSE(SB), NOSPLIT, $0-72
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ b+24(FP), DX
	MOVQ pairs+32(FP), BX
	MOVQ np+40(FP), CX
	MOVQ singles+48(FP), R9
	MOVQ ns+56(FP), R11
	LOADK(DX)
	XORQ AX, AX

singlesLoop:
	CMPQ AX, R11
	JGE singlesDone
	MOVWQZX 0(R9), R10
	CMPQ R10, R8
	JAE singleBad
	SPLAT(4(R9), X0)
	ROWBYTES(R10)
	ADDROW
	ADDQ $8, R9
	INCQ AX
	JMP singlesLoop

singlesDone:
	// Lanes 2 and 3 of X6 start the second pixels' classes 0 and 1 at 0.
	XORPS X7, X7
	MOVLHPS X7, X6
	XORPS X8, X8
	MOVQ R8, R12
	DECQ R12
	XORQ AX, AX

pairsLoop:
	CMPQ AX, CX
	JGE pairsDone
	MOVWQZX 0(BX), R10
	CMPQ R10, R12
	JAE pairBad
	SPLAT(4(BX), X0)
	SPLAT(8(BX), X1)
	MOVAPS X0, X2
	SHUFPS $0, X1, X2
	ROWBYTES(R10)
	MULADD(MOVUPS, 0(SI)(R10*1), X0, X3, X4)
	MULADD(MOVUPS, 16(SI)(R10*1), X0, X3, X5)
	MULADD(MOVUPS, 32(SI)(R10*1), X2, X3, X6)
	MULADD(MOVUPS, 48(SI)(R10*1), X1, X3, X7)
	MULADD(MOVUPS, 64(SI)(R10*1), X1, X3, X8)
	ADDQ $12, BX
	INCQ AX
	JMP pairsLoop

pairsDone:
	// z0-3 = X4 + (X6[2], X6[3], X7[0], X7[1]); z4-7 = X5 + (X7[2], X7[3],
	// X8[0], X8[1]); z8-9 = X6[0,1] + X8[2,3].
	MOVAPS X6, X9
	SHUFPS $0x4E, X7, X9
	ADDPS X9, X4
	MOVAPS X7, X10
	SHUFPS $0x4E, X8, X10
	ADDPS X10, X5
	MOVHLPS X8, X11
	ADDPS X11, X6
	STOREK(DI)
	MOVQ $-1, bad+64(FP)
	RET

singleBad:
	MOVQ R10, bad+64(FP)
	RET

pairBad:
	INCQ R10
	MOVQ R10, bad+64(FP)
	RET
