//go:build !purego

#include "textflag.h"

// The float32 kernels of kernels.go with SSE: each pixel's ten weights are
// three vectors (classes 0-3, 4-7 and 8-9), so one MULPS and one ADDPS do
// the work of four scalar steps. Every lane does the same IEEE operations,
// in the same order, as the scalar Go code, so the results are bit for bit
// the same (SSE2 is part of amd64; no FMA is used).

// func logitsSSE(z *[10]float32, w *float32, rows int, b *[10]float32, index *uint16, value *float32, n int) (bad int)
TEXT ·logitsSSE(SB), NOSPLIT, $0-64
	MOVQ z+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ b+24(FP), DX
	MOVQ index+32(FP), BX
	MOVQ value+40(FP), R9
	MOVQ n+48(FP), CX
	MOVUPS 0(DX), X4
	MOVUPS 16(DX), X5
	MOVSD 32(DX), X6
	XORQ AX, AX

logitsLoop:
	CMPQ AX, CX
	JGE logitsDone
	MOVWQZX (BX)(AX*2), R10
	CMPQ R10, R8
	JAE logitsBad
	MOVSS (R9)(AX*4), X0
	SHUFPS $0, X0, X0
	LEAQ (R10)(R10*4), R10
	SHLQ $3, R10
	MOVUPS 0(SI)(R10*1), X1
	MULPS X0, X1
	ADDPS X1, X4
	MOVUPS 16(SI)(R10*1), X2
	MULPS X0, X2
	ADDPS X2, X5
	MOVSD 32(SI)(R10*1), X3
	MULPS X0, X3
	ADDPS X3, X6
	INCQ AX
	JMP logitsLoop

logitsDone:
	MOVUPS X4, 0(DI)
	MOVUPS X5, 16(DI)
	MOVSD X6, 32(DI)
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
	MOVUPS 0(DX), X4
	MOVUPS 16(DX), X5
	MOVSD 32(DX), X6
	XORQ AX, AX

scatterLoop:
	CMPQ AX, CX
	JGE scatterDone
	MOVWQZX (BX)(AX*2), R10
	CMPQ R10, R8
	JAE scatterBad
	MOVSS (R9)(AX*4), X0
	SHUFPS $0, X0, X0
	LEAQ (R10)(R10*4), R10
	SHLQ $3, R10
	MOVAPS X0, X1
	MULPS X4, X1
	MOVUPS 0(DI)(R10*1), X2
	ADDPS X1, X2
	MOVUPS X2, 0(DI)(R10*1)
	MOVAPS X0, X1
	MULPS X5, X1
	MOVUPS 16(DI)(R10*1), X2
	ADDPS X1, X2
	MOVUPS X2, 16(DI)(R10*1)
	MOVAPS X0, X1
	MULPS X6, X1
	MOVSD 32(DI)(R10*1), X2
	ADDPS X1, X2
	MOVSD X2, 32(DI)(R10*1)
	INCQ AX
	JMP scatterLoop

scatterDone:
	MOVQ $-1, bad+48(FP)
	RET

scatterBad:
	MOVQ AX, bad+48(FP)
	RET
