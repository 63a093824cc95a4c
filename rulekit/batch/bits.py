"""Bit counts as single machine instructions in numba code: LLVM's ctpop and cttz intrinsics
(numba has no int.bit_count). Masks of cards and of table entries are counted and walked bit
by bit on every turn of the batch engine, so these are its hottest few lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """The set bits of an int64 (llvm.ctpop)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        [value] = args
        value = context.cast(builder, value, signature.args[0], types.int64)
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [value])

    return types.int64(x), codegen


@intrinsic
def _low_bit(typingctx: Any, x: Any) -> Any:
    """The index of the lowest set bit of an int64 (llvm.cttz; 64 for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        [value] = args
        value = context.cast(builder, value, signature.args[0], types.int64)
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [value, ir.Constant(ir.IntType(1), 0)])

    return types.int64(x), codegen


# as numba code calls them (the intrinsics' own signatures take numba's typing context first)
popcount = cast(Callable[[int], int], _popcount)
low_bit = cast(Callable[[int], int], _low_bit)
